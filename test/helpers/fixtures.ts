// Shared test fixtures: the canonical example program of ../shared (beside the repository, as on
// CI), and a clock that starts at a fixed instant and then runs in real time.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const found = [resolve(repoRoot, '../shared/examples/program.json'), '/work/shared/examples/program.json'].find((path) => existsSync(path));
if (found === undefined) throw new Error('../shared/examples/program.json not found beside the repository');

export const EXAMPLE_PROGRAM_PATH: string = found;

/** A fresh copy of the example program. */
export function exampleProgram<T = Record<string, unknown>>(): T {
  return JSON.parse(readFileSync(EXAMPLE_PROGRAM_PATH, 'utf8')) as T;
}
