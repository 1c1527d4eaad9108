// What a backup document may hold, checked in one cheap pass before the XML validator and parser
// see it. Both cost far more than this pass on hostile input: a 9.5 MB document whose one
// attribute held 1.9 million character references took the validator seconds and hundreds of MB,
// and a long text, a long name or a crowd of tiny elements cost the parser as much. fast-xml-parser's
// own limits (processEntities.maxTotalExpansions, maxExpandedLength) bound the expansion of
// entities declared in a DOCTYPE, not character references, so they bound nothing here: DOCTYPEs
// are refused, and ./xml.ts decodes the references itself. Each bound below is derived from what a
// backup needs (docs/backup-format.md lists them).
import { AppError } from '../../errors.js';

export const XML_LIMITS = {
  /** The document, in UTF-8 bytes. */
  bytes: 10 * 1024 * 1024,
  /** Element nesting: the format needs 7 (Nitro/SiteConfiguration/Missions/Mission/Rules/Rule/Metadata). */
  depth: 32,
  /**
   * Elements: a program as large as the model's lists allow (10,000 actions, badges, groups and
   * missions, each mission with a rule and a reward) has about 100,000.
   */
  elements: 100_000,
  /** Attributes of one element: <SiteConfiguration> has the most, 16. */
  attributesPerElement: 64,
  /**
   * Attributes in the document: that largest program has about 300,000 (a mission's dozen, a
   * rule's four, an action's, badge's or group's few). The parser's cost grows with them.
   */
  attributes: 400_000,
  /**
   * One attribute value as written: the longest field is 4,000 characters (descriptions and
   * feed texts), and one character written as a reference takes at most 10 (`&#x10FFFF;`).
   */
  valueChars: 40_000,
  /** Character references in one value: each stands for at least one of those 4,000 characters. */
  valueReferences: 4_000,
  /**
   * Character references in the document. Questline writes one for each quote, ampersand, angle
   * bracket, newline or tab in a text; this leaves room for 25 of them in each of 10,000 texts.
   */
  references: 250_000,
  /** Text between two tags (CDATA included): the format has none but the indentation. */
  textChars: 4_096,
  /** A tag outside its attribute values (its names and spaces): the longest name has 24 characters. */
  tagChars: 8_192,
} as const;

function refuse(detail: string): AppError {
  return new AppError('xml_forbidden', detail);
}

interface Counts {
  depth: number;
  elements: number;
  attributes: number;
  references: number;
}

/** The character and entity references (`&…;`) in xml[from, to), a range already known to be short. */
function referencesIn(xml: string, from: number, to: number): number {
  let count = 0;
  for (let at = from; at < to; at++) if (xml.charCodeAt(at) === 0x26) count += 1;
  return count;
}

function addReferences(counts: Counts, references: number): void {
  counts.references += references;
  if (counts.references > XML_LIMITS.references) throw refuse(`The document holds more than ${XML_LIMITS.references} character or entity references`);
}

function checkText(xml: string, from: number, to: number, counts: Counts): void {
  if (to - from > XML_LIMITS.textChars)
    throw refuse(`A text between elements is longer than ${XML_LIMITS.textChars} characters (backups hold their data in attributes)`);
  addReferences(counts, referencesIn(xml, from, to));
}

function checkValue(xml: string, from: number, to: number, counts: Counts): void {
  if (to - from > XML_LIMITS.valueChars) throw refuse(`An attribute value is longer than ${XML_LIMITS.valueChars} characters`);
  const references = referencesIn(xml, from, to);
  if (references > XML_LIMITS.valueReferences) throw refuse(`An attribute value holds more than ${XML_LIMITS.valueReferences} character or entity references`);
  addReferences(counts, references);
}

/** Where a construct that starts with `open` at `at` ends (after `close`), or -1 when it never does. */
function skip(xml: string, at: number, open: string, close: string): number {
  const end = xml.indexOf(close, at + open.length);
  return end < 0 ? -1 : end + close.length;
}

/**
 * Checks the tag at `at` (an opening, closing or empty-element tag) and returns where it ends, or
 * -1 when it never does (the validator then reports it with its position).
 */
function checkTag(xml: string, at: number, counts: Counts): number {
  const closing = xml.charCodeAt(at + 1) === 0x2f; // '/'
  let markup = 0;
  let attributes = 0;
  let i = at + 1;
  for (;;) {
    const start = i;
    let c = xml.charCodeAt(i);
    // Up to the next quote or '>': names, '=' and spaces.
    while (i < xml.length && c !== 0x22 && c !== 0x27 && c !== 0x3e) {
      if (c === 0x3d) attributes += 1; // '=' outside a value: one attribute
      c = xml.charCodeAt(++i);
    }
    markup += i - start;
    if (markup > XML_LIMITS.tagChars) throw refuse(`A tag is longer than ${XML_LIMITS.tagChars} characters outside its attribute values`);
    if (attributes > XML_LIMITS.attributesPerElement) throw refuse(`An element has more than ${XML_LIMITS.attributesPerElement} attributes`);
    if (i >= xml.length) return -1;
    if (c === 0x3e) break;
    const close = xml.indexOf(xml[i] as string, i + 1);
    checkValue(xml, i + 1, close < 0 ? xml.length : close, counts);
    if (close < 0) return -1;
    i = close + 1;
  }
  counts.attributes += attributes;
  if (counts.attributes > XML_LIMITS.attributes) throw refuse(`The document has more than ${XML_LIMITS.attributes} attributes`);
  if (closing) {
    counts.depth -= 1;
  } else {
    counts.elements += 1;
    if (counts.elements > XML_LIMITS.elements) throw refuse(`The document has more than ${XML_LIMITS.elements} elements`);
    if (xml.charCodeAt(i - 1) !== 0x2f) counts.depth += 1;
    if (counts.depth > XML_LIMITS.depth) throw refuse(`Elements are nested deeper than ${XML_LIMITS.depth} levels`);
  }
  return i + 1;
}

/**
 * Refuses what a backup never needs and an attacker would: more than XML_LIMITS allows, DTDs and
 * entity declarations. One pass, linear in the document's length. Constructs it cannot find the
 * end of are left to the validator, which reports them with their line and column.
 */
export function checkXmlLimits(xml: string): void {
  if (Buffer.byteLength(xml, 'utf8') > XML_LIMITS.bytes)
    throw new AppError('payload_too_large', `The XML document is larger than ${XML_LIMITS.bytes / 1024 / 1024} MB`);
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml)) throw refuse('DOCTYPE and ENTITY declarations are not allowed');
  const counts: Counts = { depth: 0, elements: 0, attributes: 0, references: 0 };
  let i = 0;
  while (i >= 0 && i < xml.length) {
    const open = xml.indexOf('<', i);
    checkText(xml, i, open < 0 ? xml.length : open, counts);
    if (open < 0) return;
    if (xml.startsWith('<!--', open)) {
      i = skip(xml, open, '<!--', '-->');
    } else if (xml.startsWith('<![CDATA[', open)) {
      i = skip(xml, open, '<![CDATA[', ']]>');
      checkText(xml, open, i < 0 ? xml.length : i, counts);
    } else if (xml.startsWith('<?', open) || xml.startsWith('<!', open)) {
      i = skip(xml, open, '<', '>');
      if ((i < 0 ? xml.length : i) - open > XML_LIMITS.tagChars)
        throw refuse(`A declaration or processing instruction is longer than ${XML_LIMITS.tagChars} characters`);
    } else {
      i = checkTag(xml, open, counts);
    }
  }
}
