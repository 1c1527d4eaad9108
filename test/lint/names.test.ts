// File names in src/ say what a file is (docs/architecture.md, "Names"): two files share a name
// only when they are the same kind of thing in different modules (a module's service.ts,
// routes.ts, repository.ts...). Any other name stands once, so that `demo.ts` or `secrets.ts`
// never means two things.
import { readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src', import.meta.url));

/** The names every module may have, each for the same job in each (docs/architecture.md, "Modules"). */
const SHARED_NAMES = new Set(['service.ts', 'routes.ts', 'repository.ts', 'schemas.ts', 'input.ts', 'definition-routes.ts', 'index.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The names that stand more than once outside `shared`, with where. */
function repeatedNames(files: readonly string[], shared: ReadonlySet<string>): Record<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const name = basename(file);
    if (!shared.has(name)) byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  return Object.fromEntries([...byName].filter(([, places]) => places.length > 1));
}

describe('file names in src/', () => {
  it('finds a name that stands twice for two things, and lets the shared module names repeat', () => {
    const files = ['modules/ui/demo.ts', 'modules/sites/demo.ts', 'modules/a/service.ts', 'modules/b/service.ts', 'modules/c/tokens.ts'];
    expect(repeatedNames(files, SHARED_NAMES)).toEqual({ 'demo.ts': ['modules/ui/demo.ts', 'modules/sites/demo.ts'] });
  });

  it('gives no other name to two files', () => {
    const files = sourceFiles(src)
      .map((file) => relative(src, file))
      .filter((file) => !file.startsWith('db/migrations/'));
    expect(repeatedNames(files, SHARED_NAMES)).toEqual({});
  });
});
