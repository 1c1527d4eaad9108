// docs/errors.md documents exactly the closed error catalog of src/errors.ts (SPEC §2: a test fails
// when a code is undocumented), each code with the status it really has.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../../src/errors.js';

const DOC_PATH = new URL('../../docs/errors.md', import.meta.url);
const ROW = /^\|\s*`([a-z0-9_]+)`\s*\|\s*(\d{3})\s*\|/;

/** Every catalog row of the document: `| \`code\` | status | meaning |`. */
function documentedCodes(markdown: string): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  for (const line of markdown.split('\n')) {
    const match = ROW.exec(line.trim());
    if (match?.[1] === undefined || match[2] === undefined) continue;
    rows.set(match[1], [...(rows.get(match[1]) ?? []), Number(match[2])]);
  }
  return rows;
}

describe('docs/errors.md', () => {
  const documented = documentedCodes(readFileSync(DOC_PATH, 'utf8'));
  const catalog = Object.entries(errorCatalog) as [string, { status: number; title: string }][];

  it('has a catalog table', () => {
    expect(documented.size).toBeGreaterThan(0);
  });

  it.each(catalog)('documents %s with its status', (code, { status }) => {
    expect(documented.has(code), `docs/errors.md has no row "| \`${code}\` | ${status} |"`).toBe(true);
    expect(documented.get(code), `docs/errors.md documents ${code} more than once or with another status`).toEqual([status]);
  });

  it('documents no code that is not in the catalog', () => {
    const unknown = [...documented.keys()].filter((code) => !Object.hasOwn(errorCatalog, code));
    expect(unknown, 'codes in docs/errors.md missing from src/errors.ts').toEqual([]);
  });

  it('parses rows the way the test expects (guards the guard)', () => {
    const sample = documentedCodes(['| code | status | meaning |', '|---|---|---|', '| `made_up` | 418 | teapot |', 'text `not_a_row` 400'].join('\n'));
    expect([...sample.entries()]).toEqual([['made_up', [418]]]);
  });
});
