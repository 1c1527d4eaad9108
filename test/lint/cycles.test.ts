// No import cycles in src/ (docs/architecture.md, "Boundaries"): between files, and between the
// modules of src/modules/ (a module that reaches another, directly or not, is never reached back
// by it). Every import counts, types included: TypeScript's own scanner lists them.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each file of src/ (relative to it) and the files of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(src, resolve(dirname(file), name.replace(/\.js$/, '.ts'))));
    graph.set(relative(src, file), targets);
  }
  return graph;
}

/** The strongly connected components of more than one node, or of one that reaches itself (Tarjan). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = member === node ? undefined : stack.pop()) component.push(member);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('import cycles', () => {
  const files = importGraph();

  it('reads the imports of the tree', () => {
    expect(files.get(join('modules', 'actions', 'service.ts'))).toContain(join('modules', 'ledger', 'repository.ts'));
  });

  it('no file reaches itself through its imports', () => {
    expect(cycles(files)).toEqual([]);
  });

  it('no module reaches itself through the modules it imports', () => {
    const moduleOf = (file: string) => /^modules[\\/]([^\\/]+)[\\/]/.exec(file)?.[1];
    const modules = new Map<string, string[]>();
    for (const [file, targets] of files) {
      const from = moduleOf(file);
      if (from === undefined) continue;
      const to = targets.map(moduleOf).filter((target) => target !== undefined && target !== from) as string[];
      modules.set(from, [...new Set([...(modules.get(from) ?? []), ...to])]);
    }
    expect(modules.size).toBeGreaterThan(10);
    expect(cycles(modules)).toEqual([]);
  });
});
