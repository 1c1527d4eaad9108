// The `questline` executable's entry: runs the command line (./index.ts) and exits with its status.
import { cli } from './index.js';

const argv = process.argv.slice(2);
cli(argv).then(
  (code) => {
    // `serve` keeps running once it listens; every other command exits when done.
    if (argv[0] !== 'serve' || code !== 0) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`questline: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
