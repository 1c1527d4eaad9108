// Bundles the UI blocks into one ES module (dist/elements/questline.js), which the service serves
// at /elements/questline.js. `npm run build` runs it; so do the browser tests' global setup.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
export const ELEMENTS_BUNDLE = join(root, '..', 'dist', 'elements', 'questline.js');

export async function buildElements(): Promise<void> {
  await build({
    entryPoints: [join(root, 'src', 'index.ts')],
    outfile: ELEMENTS_BUNDLE,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildElements();
