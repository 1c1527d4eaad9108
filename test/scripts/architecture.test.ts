// docs/architecture.md's map of src/ is generated (scripts/architecture.ts): it must match the tree.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOC, generatedMap, purpose, withMap } from '../../scripts/architecture.js';

describe('the generated map of the tree in docs/architecture.md', () => {
  it('is up to date with src/ (run npm run architecture after adding, moving or describing a file)', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(withMap(doc, generatedMap()) === doc, 'docs/architecture.md is out of date: npm run architecture').toBe(true);
  });

  it.each([
    [
      'the first sentence of the opening comment',
      '// Logging an action: first things first. Then more.\n// Again.\nimport x;',
      'Logging an action: first things first.',
    ],
    [
      'a sentence that runs over lines, with a file name in it',
      '// The closed catalog (STYLE.md, errors.md) is kept\n// here. More.\n',
      'The closed catalog (STYLE.md, errors.md) is kept here.',
    ],
    [
      'no reference to a document outside the repository (the docs cite none)',
      '// Award accounts (SPEC §11): who may redeem, and the debits admins post. More.\n',
      'Award accounts: who may redeem, and the debits admins post.',
    ],
    [
      'no leading reference either',
      '// SPEC §5 step 6: which missions an action advances, and whether it completes them.\n',
      'Which missions an action advances, and whether it completes them.',
    ],
    [
      'nor one of the interface document',
      '// POST /backup (interface document §4 Administrative, §2 Restore fields) and some more text here.\n',
      'POST /backup and some more text here.',
    ],
    ['nothing for a file that opens with code', 'import x from "y";\n// later\n', ''],
    ['the whole comment when it has no full stop', '#!/usr/bin/env node\n// The entry: runs the CLI\n', 'The entry: runs the CLI'],
  ])('reads a file’s job: %s', (_name, text, expected) => {
    expect(purpose(text)).toBe(expected);
  });
});
