// Bundles the console (console/src/) into dist/console/: its script and stylesheet under content
// hashes in assets/ (served with a year-long immutable cache), the few icons it shows, and
// index.html naming the hashed files (served at /console without caching, so a new build is
// picked up at the next visit). `npm run build` runs it; so do the browser tests' global setup.
import { build, type Metafile } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ICONS } from './src/icons.js';

const root = dirname(fileURLToPath(import.meta.url));
export const CONSOLE_DIR = join(root, '..', 'dist', 'console');
const ASSETS = join(CONSOLE_DIR, 'assets');

export async function buildConsole(): Promise<void> {
  rmSync(CONSOLE_DIR, { recursive: true, force: true });
  const { metafile } = await build({
    entryPoints: { console: join(root, 'src', 'main.ts') },
    outdir: ASSETS,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    metafile: true,
    loader: { '.woff2': 'file', '.woff': 'file' },
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warning',
  });
  mkdirSync(join(ASSETS, 'icons'), { recursive: true });
  const icons = join(root, '..', 'node_modules', '@shoelace-style', 'shoelace', 'dist', 'assets', 'icons');
  for (const icon of ICONS) copyFileSync(join(icons, `${icon}.svg`), join(ASSETS, 'icons', `${icon}.svg`));
  writeFileSync(join(CONSOLE_DIR, 'index.html'), indexPage(bundled(metafile, '.js'), bundled(metafile, '.css')));
}

/** The URL path of the entry's output that ends in `extension`. */
function bundled(metafile: Metafile, extension: string): string {
  const output = Object.keys(metafile.outputs).find((path) => basename(path).startsWith('console-') && path.endsWith(extension));
  if (output === undefined) throw new Error(`the console bundle has no ${extension} output`);
  return `/console/assets/${relative(ASSETS, join(process.cwd(), output))}`;
}

function indexPage(script: string, stylesheet: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Questline Console</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${stylesheet}">
<script type="module" src="${script}"></script>
</head>
<body>
<ql-console></ql-console>
<noscript>The Questline Console needs JavaScript.</noscript>
</body>
</html>
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildConsole();
