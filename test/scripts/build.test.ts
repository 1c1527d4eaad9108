// scripts/build.js decides what `npm start` (and `npm install`) must build: a target (the server,
// the UI bundle, the console) is stale when it never built, an output of it is missing, or one of its input files
// or directories was modified after its last build started; the others are not built again. Run on
// a tree of its own (a copy of the script beside fake sources and outputs), as functions and as the
// process npm runs.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { missingToolchain, ROOT, STAMP, staleTargets, TARGETS } from '../../scripts/build.js';

let root: string;
/** When the fake builds started: every file made below is older. */
const BUILT_AT = Date.now() - 60_000;
const SOURCES = [
  'src/server.ts',
  'src/cli/main.ts',
  'ui/src/index.ts',
  'ui/build.ts',
  'ui/tsconfig.json',
  'console/src/main.ts',
  'console/build.ts',
  'console/tsconfig.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];

const file = (path: string, content = '{}') => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
};
/** Sets a path's modification time `offsetMs` from the builds' start. */
const modified = (path: string, offsetMs: number) => {
  const seconds = (BUILT_AT + offsetMs) / 1000;
  utimesSync(join(root, path), seconds, seconds);
};
const stale = () => staleTargets(root);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'questline-build-'));
  for (const path of SOURCES) file(path);
  file('package.json', '{ "type": "module" }');
  for (const { outputs } of Object.values(TARGETS)) for (const path of outputs) file(path);
  file(STAMP, `${JSON.stringify({ server: BUILT_AT, ui: BUILT_AT, console: BUILT_AT })}\n`);
  // Every source predates the builds (directories too: their entries were made above).
  for (const path of [...SOURCES, 'src/cli', 'src', 'ui/src', 'ui', 'console/src', 'console']) modified(path, -30_000);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('staleTargets', () => {
  it('is empty when nothing changed since the last build', () => {
    expect(stale()).toEqual([]);
  });

  it('names the server when one of its sources was modified after its build started, and only it', () => {
    modified('src/cli/main.ts', 1_000);
    expect(stale()).toEqual([{ target: 'server', reason: 'src/cli/main.ts changed since the last build' }]);
  });

  it('names the UI bundle alone for a change to a block', () => {
    modified('ui/src/index.ts', 1_000);
    expect(stale()).toEqual([{ target: 'ui', reason: 'ui/src/index.ts changed since the last build' }]);
  });

  it('names the console alone for a change to one of its pages', () => {
    modified('console/src/main.ts', 1_000);
    expect(stale()).toEqual([{ target: 'console', reason: 'console/src/main.ts changed since the last build' }]);
  });

  it('sees a file added to, or removed from, a source directory (the directory changes)', () => {
    file('src/cli/new-command.ts');
    expect(stale()).toEqual([{ target: 'server', reason: expect.stringMatching(/^src\/cli(\/new-command\.ts)? changed since the last build$/) }]);
    rmSync(join(root, 'src/cli/new-command.ts'));
    modified('src/cli', 2_000);
    expect(stale()).toEqual([{ target: 'server', reason: 'src/cli changed since the last build' }]);
  });

  it.each(['tsconfig.json', 'package.json', 'package-lock.json'])('names every target for %s', (path) => {
    modified(path, 1_000);
    expect(stale().map((s) => s.target)).toEqual(['server', 'ui', 'console']);
  });

  it('ignores an input that does not exist (no package-lock.json)', () => {
    rmSync(join(root, 'package-lock.json'));
    expect(stale()).toEqual([]);
  });

  it('is stale when it never built, its stamp is unreadable, or an output is missing', () => {
    rmSync(join(root, 'dist/elements/questline.js'));
    expect(stale()).toEqual([{ target: 'ui', reason: 'dist/elements/questline.js is missing' }]);
    file(STAMP, JSON.stringify({ ui: BUILT_AT, console: BUILT_AT }));
    expect(stale()).toEqual([
      { target: 'server', reason: 'it was never built here' },
      { target: 'ui', reason: 'dist/elements/questline.js is missing' },
    ]);
    file(STAMP, 'not json');
    expect(stale().map((s) => s.reason)).toEqual(['it was never built here', 'it was never built here', 'it was never built here']);
  });

  it('knows the real tree: its inputs exist, its dev dependencies are installed', () => {
    const inputs = Object.values(TARGETS).flatMap((target) => target.inputs);
    expect(inputs.filter((input) => !existsSync(join(ROOT, input)))).toEqual([]);
    expect(missingToolchain(ROOT)).toEqual([]);
    expect(missingToolchain(root)).toEqual(['typescript', 'tsx', 'esbuild', 'lit']);
  });
});

describe('node scripts/build.js, as npm runs it', () => {
  /** Runs the script copied into the fake tree (so it builds that tree, where no dev dependency is installed). */
  const run = (...args: string[]) => {
    file('scripts/build.js');
    copyFileSync(join(ROOT, 'scripts/build.js'), join(root, 'scripts/build.js'));
    modified('scripts/build.js', -30_000);
    modified('scripts', -30_000);
    const result = spawnSync(process.execPath, ['scripts/build.js', ...args], { cwd: root, encoding: 'utf8' });
    return { code: result.status, stderr: result.stderr };
  };

  it('npm start with nothing changed: builds nothing, says nothing', () => {
    expect(run('--if-stale')).toEqual({ code: 0, stderr: '' });
  });

  it('npm start after a change, without the dev dependencies: starts the last build, saying why', () => {
    modified('src/server.ts', 1_000);
    const { code, stderr } = run('--if-stale');
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /^questline: starting the last build although server: src\/server\.ts changed since the last build: the dev dependencies .* are not installed/,
    );
  });

  it('npm start with nothing built and no dev dependencies: fails, saying what to do', () => {
    rmSync(join(root, 'dist'), { recursive: true });
    const { code, stderr } = run('--if-stale');
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^questline: cannot build: the dev dependencies that build Questline are not installed \(typescript, tsx, esbuild, lit\): run npm install/,
    );
  });

  it('npm install --omit=dev (prepare): does not fail the install', () => {
    rmSync(join(root, 'dist'), { recursive: true });
    const { code, stderr } = run('--prepare');
    expect(code).toBe(0);
    expect(stderr).toMatch(/^questline: not built: the dev dependencies/);
  });
});
