// The XML backup format (SPEC §13): writing a program, and reading one back safely. The writer is
// deterministic (attribute order from ./xml-spec.ts, two-space indentation, no timestamps), so a
// backup restored and backed up again is byte-identical. The reader refuses DTDs and entity
// declarations and documents over the limits of ./xml-limits.ts before it parses anything, and
// reports malformed XML with its line and column.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { AppError } from '../../errors.js';
import type { ProgramDocument } from '../program/model.js';
import { malformedXml } from './malformed-xml.js';
import { checkXmlLimits, XML_LIMITS } from './xml-limits.js';
import { siteConfigurationSpec, type ChildSpec, type ElementSpec, type Scalar } from './xml-spec.js';

export const MAX_XML_BYTES = XML_LIMITS.bytes;
const ROOT_ATTRIBUTES = 'method="admin.backupSiteConfig" server="questline" res="ok"';

// ---------------------------------------------------------------------------------------------
// Writing

function escapeAttribute(value: string): string {
  return value.replace(
    /[&<>"\n\r\t]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' })[c] as string,
  );
}

function getPath(object: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((value, part) => (value === null || typeof value !== 'object' ? undefined : (value as Record<string, unknown>)[part]), object);
}

function writeElement(spec: ElementSpec, object: Record<string, unknown>, attributeSource: Record<string, unknown>, indent: string, out: string[]): void {
  const attributes = spec.attributes
    .filter(([key]) => attributeSource[key] !== undefined)
    .map(([key]) => ` ${key}="${escapeAttribute(String(attributeSource[key]))}"`)
    .join('');
  const children: string[] = [];
  for (const child of spec.children ?? []) writeChild(child, object, `${indent}  `, children);
  if (children.length === 0) {
    out.push(`${indent}<${spec.element}${attributes}/>`);
  } else {
    out.push(`${indent}<${spec.element}${attributes}>`, ...children, `${indent}</${spec.element}>`);
  }
}

function writeChild(child: ChildSpec, parent: Record<string, unknown>, indent: string, out: string[]): void {
  const value = getPath(parent, child.key);
  if (value === undefined) return;
  if (child.kind === 'object') {
    const lines: string[] = [];
    writeElement(child.spec, value as Record<string, unknown>, value as Record<string, unknown>, indent, lines);
    // An object with nothing in it is its canonical default: leave it out.
    if (lines.length > 1 || child.spec.attributes.some(([key]) => (value as Record<string, unknown>)[key] !== undefined)) out.push(...lines);
    return;
  }
  const items = value as unknown[];
  if (items.length === 0) return;
  const itemIndent = child.kind === 'list' && child.wrapper ? `${indent}  ` : indent;
  const lines: string[] = [];
  for (const item of items) {
    if (child.kind === 'list') writeElement(child.spec, item as Record<string, unknown>, item as Record<string, unknown>, itemIndent, lines);
    else lines.push(`${itemIndent}<${child.element} ${child.attribute}="${escapeAttribute(String(item))}"/>`);
  }
  if (child.kind === 'list' && child.wrapper) out.push(`${indent}<${child.wrapper}>`, ...lines, `${indent}</${child.wrapper}>`);
  else out.push(...lines);
}

/** The backup document of a program (without its webhook secret, which backups never carry). */
export function programToXml(program: ProgramDocument): string {
  const site: Record<string, unknown> = { ...program.site };
  delete site.webhookSecret;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>', `<Nitro ${ROOT_ATTRIBUTES}>`];
  writeElement(siteConfigurationSpec, { ...program, site } as unknown as Record<string, unknown>, site, '  ', out);
  out.push('</Nitro>', '');
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Reading

interface XmlElement {
  $?: Record<string, string>;
  [child: string]: unknown;
}

const UNKNOWN_REFERENCE = /&(?!(?:#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);)/;

/** True for the characters XML 1.0 allows in a document. */
function isXmlCharacter(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

function decodeEntities(value: string, path: string): string {
  if (UNKNOWN_REFERENCE.test(value) || value.includes('<')) {
    throw new AppError('malformed_xml', `${path}: an attribute value holds an unescaped & or <, or an undeclared entity`);
  }
  return value.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (_, entity: string) => {
    if (entity.startsWith('#')) {
      const code = entity.startsWith('#x') ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
      if (!isXmlCharacter(code)) throw new AppError('malformed_xml', `${path}: &${entity}; is not a character XML allows`);
      return String.fromCodePoint(code);
    }
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[entity] as string;
  });
}

function convert(value: string, type: Scalar): unknown {
  if (type === 'number') {
    const number = Number(value);
    return value.trim() !== '' && Number.isFinite(number) ? number : value; // a bad number is reported by validation, with its path
  }
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  return value;
}

function childElements(element: XmlElement, name: string): XmlElement[] {
  const value = element[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]) as XmlElement[];
}

/** Reads an element into a model object; unknown attributes and elements are errors. */
function readElement(
  spec: ElementSpec,
  element: XmlElement,
  path: string,
  errors: string[],
  attributeTarget?: Record<string, unknown>,
): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  readAttributes(spec, element, path, errors, attributeTarget ?? object);
  const expected = new Set<string>(['$']);
  for (const child of spec.children ?? []) {
    if (child.kind === 'object') {
      expected.add(child.spec.element);
      const value = readObject(child, element, path, errors);
      if (value !== undefined) object[child.key] = value;
    } else {
      expected.add(child.kind === 'list' ? (child.wrapper ?? child.spec.element) : child.element);
      const items = child.kind === 'list' ? readList(child, element, path, errors) : readValues(child, element, path, errors);
      if (items.length > 0) setPath(object, child.key, items);
    }
  }
  for (const name of Object.keys(element)) {
    if (!expected.has(name) && !isBlankText(name, element[name]))
      errors.push(name === TEXT ? `${path}: unexpected text content` : `${path}/${name}: unknown element`);
  }
  return object;
}

function readAttributes(spec: ElementSpec, element: XmlElement, path: string, errors: string[], into: Record<string, unknown>): void {
  const known = new Map(spec.attributes);
  for (const [name, raw] of Object.entries(element.$ ?? {})) {
    const type = known.get(name);
    if (type === undefined) errors.push(`${path}/@${name}: unknown attribute`);
    else into[name] = convert(decodeEntities(raw, `${path}/@${name}`), type);
  }
}

/** An optional object: its one child element, read (undefined when absent). */
function readObject(child: ChildSpec & { kind: 'object' }, element: XmlElement, path: string, errors: string[]): Record<string, unknown> | undefined {
  const [first, ...rest] = childElements(element, child.spec.element);
  if (rest.length > 0) errors.push(`${path}/${child.spec.element}: appears more than once`);
  return first === undefined ? undefined : readElement(child.spec, first, `${path}/${child.spec.element}`, errors);
}

/** A list of objects: its repeated child elements (inside their one wrapper element, when it has one), read. */
function readList(child: ChildSpec & { kind: 'list' }, element: XmlElement, path: string, errors: string[]): Array<Record<string, unknown>> {
  let items = childElements(element, child.spec.element);
  let itemPath = `${path}/${child.spec.element}`;
  if (child.wrapper) {
    const wrappers = childElements(element, child.wrapper);
    if (wrappers.length > 1) errors.push(`${path}/${child.wrapper}: appears more than once`);
    const wrapper = wrappers[0];
    items = wrapper === undefined ? [] : childElements(wrapper, child.spec.element);
    itemPath = `${path}/${child.wrapper}/${child.spec.element}`;
    if (wrapper !== undefined) {
      for (const name of Object.keys(wrapper)) {
        if (name !== child.spec.element && name !== '$' && !isBlankText(name, wrapper[name])) errors.push(`${path}/${child.wrapper}/${name}: unknown element`);
      }
    }
  }
  return items.map((item, index) => readElement(child.spec, item, `${itemPath}[${index + 1}]`, errors));
}

/** A list of strings: the attribute of each repeated child element. */
function readValues(child: ChildSpec & { kind: 'values' }, element: XmlElement, path: string, errors: string[]): string[] {
  return childElements(element, child.element).map((item, index) => {
    const value = item.$?.[child.attribute];
    if (value === undefined) errors.push(`${path}/${child.element}[${index + 1}]/@${child.attribute}: is required`);
    return decodeEntities(value ?? '', `${path}/${child.element}[${index + 1}]/@${child.attribute}`);
  });
}

const TEXT = '#text';

/** The indentation between elements, which the parser keeps as text once values are not trimmed. */
function isBlankText(name: string, value: unknown): boolean {
  return name === TEXT && (Array.isArray(value) ? value : [value]).every((v) => String(v).trim() === '');
}

function setPath(object: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let target = object;
  for (const part of parts.slice(0, -1)) target = (target[part] ??= {}) as Record<string, unknown>;
  target[parts[parts.length - 1] as string] = value;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributesGroupName: '$',
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Not trimmed: attribute values keep their leading and trailing spaces (byte-identical round trips).
  trimValues: false,
  textNodeName: TEXT,
  allowBooleanAttributes: false,
});

/**
 * The program in an XML backup, not yet validated (the caller runs the program validator, so XML
 * and JSON meet the same rules). Throws AppError for unsafe, malformed or misshapen documents.
 */
export function xmlToProgram(xml: string): unknown {
  checkXmlLimits(xml);
  const valid = XMLValidator.validate(xml, { allowBooleanAttributes: false });
  if (valid !== true) throw malformedXml(xml, valid.err);
  const document = parser.parse(xml) as Record<string, unknown>;
  const roots = Object.keys(document);
  if (roots.length !== 1 || roots[0] !== 'Nitro') throw new AppError('malformed_xml', 'The root element must be <Nitro>');
  const nitro = document.Nitro as XmlElement;
  const configurations = childElements(nitro, 'SiteConfiguration');
  if (configurations.length !== 1) throw new AppError('malformed_xml', '<Nitro> must hold exactly one <SiteConfiguration>');
  const errors: string[] = [];
  for (const name of Object.keys(nitro)) {
    if (name !== '$' && name !== 'SiteConfiguration' && !isBlankText(name, nitro[name])) errors.push(`Nitro/${name}: unknown element`);
  }
  const site: Record<string, unknown> = {};
  const program = readElement(siteConfigurationSpec, configurations[0] as XmlElement, 'SiteConfiguration', errors, site);
  program.site = { ...site, ...(program.site as Record<string, unknown> | undefined) };
  if (errors.length > 0) {
    throw new AppError('validation_failed', 'The backup document has elements or attributes Questline does not know', {
      errors: errors.slice(0, 100).map((error) => {
        const [path, message] = error.split(': ');
        return { path: path as string, message: message ?? 'is invalid' };
      }),
    });
  }
  return program;
}
