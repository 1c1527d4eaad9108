#!/usr/bin/env node
// The build: the server (tsc, incremental, into dist/src/), the UI blocks' bundle (esbuild, into
// dist/elements/) and the console (esbuild, into dist/console/), each a target of its own. Plain JavaScript on Node's own modules, so that it
// runs, and can tell what is missing, without the dev dependencies it builds with.
//
//   node scripts/build.js              build (npm run build; CI)
//   node scripts/build.js --if-stale   build only if a source changed since the last build (npm start)
//   node scripts/build.js --prepare    the same at install (npm install, npm ci); without the dev
//                                      dependencies (--omit=dev) it says so and builds nothing
//
// "Changed" is by modification time: a target's successful build records when it started (STAMP),
// and any of its input files or directories (a directory's time moves when an entry is added,
// removed or renamed) modified after that makes it stale; so does a missing output. Only stale
// targets are built. With nothing changed the check is one walk over the sources, a few
// milliseconds, where the build takes tens of seconds.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Inputs of every target: the dependencies' versions, and this script. */
const COMMON_INPUTS = ['package.json', 'package-lock.json', 'scripts/build.js'];
/**
 * What each target reads (directories are walked; an input that does not exist is no change) and
 * what it writes that `npm start`, the CLI and /elements/questline.js need.
 */
export const TARGETS = {
  server: { inputs: ['src', 'tsconfig.json', 'tsconfig.build.json', ...COMMON_INPUTS], outputs: ['dist/src/server.js', 'dist/src/cli/main.js'] },
  ui: { inputs: ['ui/src', 'ui/build.ts', 'ui/tsconfig.json', 'tsconfig.json', ...COMMON_INPUTS], outputs: ['dist/elements/questline.js'] },
  console: { inputs: ['console/src', 'console/build.ts', 'console/tsconfig.json', 'tsconfig.json', ...COMMON_INPUTS], outputs: ['dist/console/index.html'] },
};
/** Written by a successful build: when each target's last build started, `{"server": <ms>, "ui": <ms>, "console": <ms>}`. */
export const STAMP = 'dist/.build-stamp.json';
/** tsc's incremental state (tsconfig.build.json); dropped when an output is missing, since tsc would not write it again. */
const TS_BUILD_INFO = 'dist/.tsbuildinfo';
/** The dev dependencies the build runs. */
const TOOLCHAIN = ['typescript', 'tsx', 'esbuild', 'lit'];

/** The targets of `root` that must be built again, each with why; empty when the build is up to date. */
export function staleTargets(root = ROOT) {
  const stamp = readStamp(root);
  const stale = [];
  for (const [target, { inputs, outputs }] of Object.entries(TARGETS)) {
    const reason = staleReason(root, stamp[target], inputs, outputs);
    if (reason !== undefined) stale.push({ target, reason });
  }
  return stale;
}

function readStamp(root) {
  try {
    const stamp = JSON.parse(readFileSync(join(root, STAMP), 'utf8'));
    return typeof stamp === 'object' && stamp !== null ? stamp : {};
  } catch {
    return {};
  }
}

function staleReason(root, startedAt, inputs, outputs) {
  if (typeof startedAt !== 'number') return 'it was never built here';
  const missing = outputs.find((output) => !existsSync(join(root, output)));
  if (missing !== undefined) return `${missing} is missing`;
  for (const input of inputs) {
    const changed = modifiedSince(join(root, input), startedAt);
    if (changed !== undefined) return `${relative(root, changed)} changed since the last build`;
  }
  return undefined;
}

/** The first path at or under `path` modified after `time` (ms), if any. */
function modifiedSince(path, time) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return undefined;
  }
  if (stat.mtimeMs > time) return path;
  if (!stat.isDirectory()) return undefined;
  for (const entry of readdirSync(path)) {
    const changed = modifiedSince(join(path, entry), time);
    if (changed !== undefined) return changed;
  }
  return undefined;
}

/** The dev dependencies of the build that are not installed for `root` (in a node_modules at or above it, as Node looks). */
export function missingToolchain(root = ROOT) {
  const installed = (name) => {
    for (let dir = root; ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
      if (dirname(dir) === dir) return false;
    }
  };
  return TOOLCHAIN.filter((name) => !installed(name));
}

/** Builds the targets of `root` (all of them by default); throws when a step fails (its output has been shown). */
export function build(root = ROOT, targets = Object.keys(TARGETS)) {
  for (const target of targets) {
    const startedAt = Date.now();
    if (target === 'server') {
      // A missing output with tsc's incremental state still there would not be written again.
      if (TARGETS.server.outputs.some((output) => !existsSync(join(root, output)))) rmSync(join(root, TS_BUILD_INFO), { force: true });
      step(root, [createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], 'tsc');
    } else if (target === 'ui') {
      step(root, ['--import', 'tsx', 'ui/build.ts'], 'the UI bundle');
    } else {
      step(root, ['--import', 'tsx', 'console/build.ts'], 'the console bundle');
    }
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(join(root, STAMP), `${JSON.stringify({ ...readStamp(root), [target]: startedAt })}\n`);
  }
}

function step(root, args, name) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`the build failed in ${name} (exit code ${result.status ?? result.signal})`);
}

function main(args) {
  const onlyIfStale = args.includes('--if-stale') || args.includes('--prepare');
  const stale = onlyIfStale ? staleTargets() : Object.keys(TARGETS).map((target) => ({ target, reason: 'asked to' }));
  if (stale.length === 0) return 0;
  const reason = stale.map((s) => `${s.target}: ${s.reason}`).join('; ');
  const missing = missingToolchain();
  if (missing.length > 0) {
    const what = `the dev dependencies that build Questline are not installed (${missing.join(', ')}): run npm install (without --omit=dev)`;
    if (args.includes('--prepare')) {
      process.stderr.write(`questline: not built: ${what}\n`);
      return 0;
    }
    if (onlyIfStale && Object.values(TARGETS).every(({ outputs }) => outputs.every((output) => existsSync(join(ROOT, output))))) {
      process.stderr.write(`questline: starting the last build although ${reason}: ${what}\n`);
      return 0;
    }
    process.stderr.write(`questline: cannot build: ${what}\n`);
    return 1;
  }
  if (onlyIfStale) process.stderr.write(`questline: building (${reason})\n`);
  try {
    build(
      ROOT,
      stale.map((s) => s.target),
    );
  } catch (error) {
    process.stderr.write(`questline: ${error.message}\n`);
    return 1;
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
