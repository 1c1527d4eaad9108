// What `questline --help` prints, and the one line of it a usage error shows: every command's
// synopsis and what it does, in one table.

interface Command {
  /** The words that name the command: 'restore', 'site create'. */
  name: string;
  synopsis: string;
  /** What it does, one entry per help line. */
  about?: string[];
}

const COMMANDS: readonly Command[] = [
  { name: 'serve', synopsis: 'serve', about: ['start the HTTP server (what npm start runs)'] },
  {
    name: 'worker',
    synopsis: 'worker',
    about: ['deliver webhooks until stopped (SIGTERM/SIGINT); run', 'servers with WEBHOOK_DISPATCHER=false to leave it to workers'],
  },
  { name: 'migrate', synopsis: 'migrate', about: ['apply pending database migrations'] },
  {
    name: 'site create',
    synopsis: 'site create --name NAME [--id ID] [--timezone TZ]',
    about: ['TZ: an IANA zone, America/Los_Angeles if not given; a Windows', 'name ("Pacific Standard Time") is stored as its IANA zone'],
  },
  { name: 'site list', synopsis: 'site list' },
  { name: 'client create', synopsis: 'client create --site SITE --role admin|app', about: ['prints the secret once'] },
  { name: 'client list', synopsis: 'client list --site SITE' },
  { name: 'client rotate', synopsis: 'client rotate --client CLIENT', about: ["new secret; revokes the old secret's tokens"] },
  { name: 'client delete', synopsis: 'client delete --client CLIENT', about: ['revokes every token of the client'] },
  { name: 'client rate', synopsis: 'client rate --client CLIENT --rate N --burst N', about: ["the client's request rate (--default: the configured one)"] },
  { name: 'program get', synopsis: 'program get --site SITE', about: ["print the site's program as JSON (what program put loads)"] },
  {
    name: 'program put',
    synopsis: 'program put --site SITE FILE',
    about: ['replace the program with a JSON file, a bare program or', 'a saved program get (validated first; all or nothing)'],
  },
  { name: 'backup', synopsis: 'backup --site SITE', about: ["print the site's configuration as backup XML"] },
  { name: 'restore', synopsis: 'restore --site SITE FILE', about: ['restore a backup XML file (validated first; all or nothing)'] },
  {
    name: 'import',
    synopsis: 'import --site SITE FILE.ndjson',
    about: ["log a program's history (NDJSON actions) through the engine,", 'in order; run again after an interruption, it resumes'],
  },
  {
    name: 'leaderboards reload',
    synopsis: 'leaderboards reload --site SITE',
    about: ["load the current windows of the site's boards into Redis", 'again from the database (repairs a lost update)'],
  },
  {
    name: 'verify',
    synopsis: 'verify [--site SITE]',
    about: ['recompute balances, cap totals, completions, trophy cases', 'and levels from the ledger; exit code 1 on any drift'],
  },
];

const ABOUT_COLUMN = 49;

function helpLines(command: Command): string[] {
  const [first, ...rest] = command.about ?? [];
  const synopsis = `  ${command.synopsis}`;
  const indent = ' '.repeat(ABOUT_COLUMN);
  if (first === undefined) return [synopsis];
  if (synopsis.length + 2 > ABOUT_COLUMN) return [synopsis, ...[first, ...rest].map((line) => indent + line)];
  return [synopsis.padEnd(ABOUT_COLUMN) + first, ...rest.map((line) => indent + line)];
}

export const USAGE = [
  'Usage: questline <command> [options]',
  '',
  'Commands:',
  ...COMMANDS.flatMap(helpLines),
  '',
  'Options:',
  '  --json    machine-readable output (one JSON document on stdout)',
  '  --help    this text',
  '',
  'Configuration comes from the environment (see README): DATABASE_URL, REDIS_URL, ...',
].join('\n');

/** A mistake in how the command was called: exit code 2, with the command's usage line. */
export class UsageError extends Error {
  /** `everything`: no command was given at all, so the whole help is the answer. */
  constructor(
    message: string,
    readonly everything = false,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The command `positionals` name ('site create'), or what they say when it is none ('site explode'). */
export function commandName(positionals: readonly string[]): string {
  const [first = '', second = ''] = positionals;
  if (COMMANDS.some((command) => command.name === first)) return first;
  return `${first} ${second}`.trim();
}

/**
 * The usage lines for the command `positionals` name: its synopsis, or, for an unknown subcommand,
 * those of the commands that begin with the same word ('site explode' → site create, site list).
 */
export function usageFor(positionals: readonly string[]): string {
  const name = commandName(positionals);
  const exact = COMMANDS.filter((command) => command.name === name);
  const matching = exact.length > 0 ? exact : COMMANDS.filter((command) => command.name.startsWith(`${name.split(' ')[0]} `));
  const lines = matching.map((command, i) => `${i === 0 ? 'Usage:' : '      '} questline ${command.synopsis}`);
  return [...lines, 'Run questline --help for every command and option.'].join('\n');
}
