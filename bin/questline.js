#!/usr/bin/env node
// The `questline` command, from the build (npm install and npm run build build it; npm start too).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('questline: not built yet; run `npm run build` (npm install and npm start build too)\n');
  process.exit(1);
}
await import(entry.href);
