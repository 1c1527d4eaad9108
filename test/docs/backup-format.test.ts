// docs/backup-format.md documents every element and attribute of the XML format: this fails when
// the format (src/modules/backup/xml-spec.ts) gains one the page does not name, or when a limit
// of src/modules/backup/xml-limits.ts is not listed with its value.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { XML_LIMITS } from '../../src/modules/backup/xml-limits.js';
import { siteConfigurationSpec, type ChildSpec, type ElementSpec } from '../../src/modules/backup/xml-spec.js';

const page = readFileSync(new URL('../../docs/backup-format.md', import.meta.url), 'utf8');

function collect(spec: ElementSpec, into: Array<{ element: string; names: string[] }>): void {
  into.push({ element: spec.element, names: spec.attributes.map(([name]) => name) });
  for (const child of spec.children ?? []) visit(child, into);
}

function visit(child: ChildSpec, into: Array<{ element: string; names: string[] }>): void {
  if (child.kind === 'values') into.push({ element: child.element, names: [child.attribute] });
  else {
    if (child.kind === 'list' && child.wrapper) into.push({ element: child.wrapper, names: [] });
    collect(child.spec, into);
  }
}

const elements: Array<{ element: string; names: string[] }> = [];
collect(siteConfigurationSpec, elements);

describe('docs/backup-format.md', () => {
  it.each(elements)('documents <$element> and its attributes', ({ element, names }) => {
    expect(page).toContain(`<${element}`);
    for (const name of names) expect(page, `${element}@${name}`).toMatch(new RegExp(`\`${name}\`|\\b${name}="|<${element}[^>]*\\b${name}\\b`));
  });

  it('lists every limit a restore checks before parsing, with its value', () => {
    const { bytes, ...counts } = XML_LIMITS;
    expect(page).toContain(`| ${bytes / 1024 / 1024} MB (UTF-8 bytes) |`);
    for (const [name, value] of Object.entries(counts)) expect(page, name).toContain(`| ${value.toLocaleString('en-US')} `);
  });
});
