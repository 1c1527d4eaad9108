// README.md, docs/, the client's README and the examples' stand on their own: they cite no document outside the repository (a sibling
// `../shared/` directory, the product specification's sections) and every relative link in them
// leads to a file of the repository, and to a heading of it when the link names one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DOCUMENTS = [
  'README.md',
  'clients/typescript/README.md',
  'examples/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
/** What points outside the repository: a path into a sibling directory, a section of the specification or of the interface document. */
const OUTSIDE = [/\.\.\/shared\b/, /\bSPEC §/, /interface document §/];
/** Markdown links `[text](target)`, not images, not absolute URLs. */
const LINK = /(?<!!)\[[^\]]*\]\(([^)\s]+)\)/g;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const headings = (markdown: string) => new Set([...markdown.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => anchor(match[1] as string)));

describe.each(DOCUMENTS)('%s', (document) => {
  const text = readFileSync(join(ROOT, document), 'utf8');

  it('cites nothing outside the repository', () => {
    const lines = text.split('\n').flatMap((line, index) => (OUTSIDE.some((pattern) => pattern.test(line)) ? [`${document}:${index + 1}: ${line}`] : []));
    expect(lines).toEqual([]);
  });

  it('links only to files (and headings) of the repository', () => {
    const broken: string[] = [];
    for (const [, target] of text.matchAll(LINK)) {
      if (target === undefined || /^[a-z]+:/i.test(target)) continue;
      const [path = '', fragment] = target.split('#');
      const file = path === '' ? join(ROOT, document) : resolve(ROOT, dirname(document), path);
      if (relative(ROOT, file).startsWith('..') || !existsSync(file)) broken.push(`${target}: no such file in the repository`);
      else if (fragment !== undefined && file.endsWith('.md') && !headings(readFileSync(file, 'utf8')).has(fragment)) broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});
