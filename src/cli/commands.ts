// The `questline` commands that work on a site's data through the services (src/cli/context.ts):
// one function per command, found by name in COMMANDS. Every command takes --json for
// machine-readable output.
import { accessSync, constants, createReadStream, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import type { ClientRole } from '../db/schema.js';
import { AppError } from '../errors.js';
import { checkNesting, checkWellFormed } from '../http/json.js';
import type { ImportProgress, ImportSummary } from '../modules/import/service.js';
import { describeSiteChanges } from '../modules/program/site-changes.js';
import { CLI_EDITOR } from '../modules/program/service.js';
import { VerifyService } from '../modules/verify/service.js';
import { counted } from '../plural.js';
import type { CliContext } from './context.js';
import { UsageError } from './usage.js';

export const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  id: { type: 'string' },
  timezone: { type: 'string' },
  site: { type: 'string' },
  role: { type: 'string' },
  client: { type: 'string' },
  rate: { type: 'string' },
  burst: { type: 'string' },
  default: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

export interface Output {
  json: boolean;
  print(result: unknown, human: string): void;
}

/** One run of a command: its services, options and arguments, and where its result goes. */
export interface Invocation {
  context: CliContext;
  config: Config;
  values: Values;
  positionals: string[];
  out: Output;
}

/** A command; resolves with the exit code when it is not 0. */
type Command = (invocation: Invocation) => Promise<number | void>;

/** A command's FILE argument: given, a readable file; with its size. */
function inputFile(file: string | undefined, usage: string): { file: string; size: number } {
  if (file === undefined) throw new UsageError(usage);
  try {
    accessSync(file, constants.R_OK);
    const stat = statSync(file);
    if (stat.isFile()) return { file, size: stat.size };
  } catch {
    // Reported below, as for a directory.
  }
  throw new UsageError(`cannot read ${file}`);
}

function required(values: Values, name: 'name' | 'site' | 'role' | 'client' | 'rate' | 'burst'): string {
  const value = values[name];
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

async function siteCreate({ context, values, out }: Invocation): Promise<void> {
  const site = await context.sites.createSite({ name: required(values, 'name'), siteId: values.id, timezone: values.timezone });
  out.print({ siteId: site.site_id, name: site.name, timezone: site.timezone }, `Created site ${site.site_id} (${site.name}, ${site.timezone})`);
}

async function siteList({ context, out }: Invocation): Promise<void> {
  const sites = (await context.sites.listSites()).map((s) => ({ siteId: s.site_id, name: s.name, timezone: s.timezone }));
  out.print({ sites }, sites.map((s) => `${s.siteId}\t${s.name}\t${s.timezone}`).join('\n') || 'No sites');
}

async function clientCreate({ context, values, out }: Invocation): Promise<void> {
  const role = required(values, 'role');
  if (role !== 'admin' && role !== 'app') throw new UsageError('--role must be admin or app');
  const credentials = await context.sites.createClient(required(values, 'site'), role as ClientRole);
  out.print(credentials, credentialsText('Created', credentials));
}

async function clientList({ context, values, out }: Invocation): Promise<void> {
  const clients = await context.sites.listClients(required(values, 'site'));
  out.print({ clients }, clients.map((c) => `${c.clientId}\t${c.role}\t${c.createdAt}`).join('\n') || 'No clients');
}

async function clientRotate({ context, values, out }: Invocation): Promise<void> {
  const credentials = await context.sites.rotateClient(required(values, 'client'));
  out.print(credentials, credentialsText('Rotated', credentials));
}

async function clientDelete({ context, values, out }: Invocation): Promise<void> {
  const clientId = required(values, 'client');
  await context.sites.deleteClient(clientId);
  out.print({ clientId, deleted: true }, `Deleted client ${clientId}; its tokens stop working within 60 seconds on every node`);
}

async function clientRate({ context, values, out }: Invocation): Promise<void> {
  const clientId = required(values, 'client');
  const limit = values.default ? null : { rate: Number(required(values, 'rate')), burst: Number(required(values, 'burst')) };
  const result = await context.sites.setClientRate(clientId, limit);
  out.print(
    result,
    result.rate === null ? `Client ${clientId} uses the configured request rate` : `Client ${clientId}: ${result.rate} requests/s, burst ${result.burst}`,
  );
}

async function programGet({ context, values, out }: Invocation): Promise<void> {
  const program = await context.programs.read(await existingSite(context, required(values, 'site')));
  // What program put loads: the bare program, the webhook secret masked (a put keeps it).
  out.print(program, JSON.stringify(program, null, 2));
}

async function programPut({ context, values, positionals, out }: Invocation): Promise<void> {
  const siteId = await existingSite(context, required(values, 'site'));
  const { file } = inputFile(positionals[2], 'program put needs the JSON file');
  const { version, program, progressArchived } = await context.programs.replace({ siteId, clientId: CLI_EDITOR }, programFile(file));
  const result = { siteId, version, missions: program.missions.length, actions: program.actions.length, progressArchived };
  out.print(result, `Loaded ${file} into site ${siteId}: program version ${version}, ${programCounts(result)}`);
}

async function backup({ context, values }: Invocation): Promise<void> {
  process.stdout.write(await context.backups.backupXml(await existingSite(context, required(values, 'site'))));
}

async function restore({ context, values, positionals, out }: Invocation): Promise<void> {
  const siteId = await existingSite(context, required(values, 'site'));
  const { file } = inputFile(positionals[1], 'restore needs the backup file');
  const xml = readFileSync(file, 'utf8');
  const result = await context.backups.restore({ siteId, clientId: CLI_EDITOR }, xml, (step) => {
    if (!out.json) process.stderr.write(`restore: ${RESTORE_STEPS[step]}\n`);
  });
  out.print(
    { siteId, ...result },
    `Restored ${file} into site ${siteId}: program version ${result.version}, ${programCounts(result)}; ${describeSiteChanges(result.siteChanges)}`,
  );
}

async function importFile({ context, values, positionals, out }: Invocation): Promise<number> {
  const siteId = await existingSite(context, required(values, 'site'));
  const { file, size } = inputFile(positionals[1], 'import needs the NDJSON file');
  const input = createReadStream(file);
  const progress = importProgress(file, () => (size === 0 ? 1 : Math.min(1, input.bytesRead / size)), out.json);
  const summary = await context.imports.run(siteId, createInterface({ input, crlfDelay: Infinity }), { onProgress: progress.update });
  progress.done();
  out.print({ siteId, file, ...summary }, importText(file, summary));
  return summary.rejected === 0 ? 0 : 1;
}

async function leaderboardsReload({ context, config, values, out }: Invocation): Promise<void> {
  const siteId = await existingSite(context, required(values, 'site'));
  if (config.redisUrl === undefined) {
    out.print(
      { siteId, reloaded: [] },
      'Leaderboards are kept in each server process (no REDIS_URL): every server loads them from the database when it starts; nothing to reload',
    );
    return;
  }
  const tty = !out.json && process.stderr.isTTY;
  const reloaded = await context.leaderboards.reload(siteId, (boardId, loaded, total) => {
    if (out.json) return;
    const line = `reload: ${boardId}: ${loaded} of ${counted(total, 'score')}`;
    // A line that rewrites itself on a terminal; a line per batch of 100,000 (and the last) otherwise.
    if (tty) process.stderr.write(`\r${line}${loaded >= total ? '\n' : ''}`);
    else if (loaded % 100_000 === 0 || loaded >= total) process.stderr.write(`${line}\n`);
  });
  out.print({ siteId, reloaded }, reloaded.map((r) => `${r.boardId}: ${counted(r.scores, 'score')} reloaded`).join('\n') || 'The site has no leaderboards');
}

async function verify({ context, values, out }: Invocation): Promise<number> {
  const siteIds = values.site !== undefined ? [await existingSite(context, values.site)] : undefined;
  const report = await new VerifyService(context.database.db, context.programs).verify(siteIds);
  const { parties, ledgerEntries, completions } = report.checked;
  const summary = `Checked ${counted(report.sites, 'site')}: ${counted(parties, 'user or group', 'users and groups')}, ${counted(ledgerEntries, 'ledger entry', 'ledger entries')}, ${counted(completions, 'completion')}`;
  const lines = report.drift.map((d) => `DRIFT ${d.siteId} ${d.check} ${d.subject}: ${d.detail}: expected ${String(d.expected)}, found ${String(d.actual)}`);
  out.print(report, [summary, ...lines, report.drift.length === 0 ? 'No drift' : counted(report.drift.length, 'drift')].join('\n'));
  return report.drift.length === 0 ? 0 : 1;
}

/** The commands over the services, by name (src/cli/usage.ts names them the same); a Map, so that no name finds an Object member. */
export const COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  ['site create', siteCreate],
  ['site list', siteList],
  ['client create', clientCreate],
  ['client list', clientList],
  ['client rotate', clientRotate],
  ['client delete', clientDelete],
  ['client rate', clientRate],
  ['program get', programGet],
  ['program put', programPut],
  ['backup', backup],
  ['restore', restore],
  ['import', importFile],
  ['leaderboards reload', leaderboardsReload],
  ['verify', verify],
]);

/** A bar that rewrites itself on a terminal (stderr); a plain line every 5 s otherwise; nothing with --json. */
function importProgress(file: string, read: () => number, json: boolean): { update: (progress: ImportProgress) => void; done: () => void } {
  const tty = !json && process.stderr.isTTY;
  const started = Date.now();
  // The first plain line after 5 s: a short import prints only its last.
  let shown = tty ? 0 : started;
  let last: ImportProgress | undefined;
  const line = ({ lines, summary }: ImportProgress) => {
    // The share of the file read (readline reads ahead of the lines logged: at the end, all of it).
    const fraction = read();
    const rate = Math.round(lines / Math.max(0.001, (Date.now() - started) / 1000));
    const counts = `${counted(lines, 'line')}, ${summary.recorded} recorded, ${counted(summary.duplicates, 'duplicate')}, ${summary.rejected} rejected, ${rate} lines/s`;
    if (!tty) return `import ${file}: ${(fraction * 100).toFixed(0)}%: ${counts}`;
    const width = 30;
    const filled = Math.round(fraction * width);
    return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${counts}`;
  };
  return {
    update(progress) {
      last = progress;
      if (json) return;
      const now = Date.now();
      if (now - shown < (tty ? 100 : 5000)) return;
      shown = now;
      process.stderr.write(tty ? `\r${line(progress)}` : `${line(progress)}\n`);
    },
    done() {
      if (json || last === undefined) return;
      process.stderr.write(tty ? `\r${line(last)}\n` : `${line(last)}\n`);
    },
  };
}

function importText(file: string, s: ImportSummary): string {
  const rejected = s.rejections.map(
    (r) => `  line ${r.line}: ${r.code}: ${r.message}${r.errors !== undefined ? `: ${r.errors.map((e) => `${e.path} ${e.message}`).join('; ')}` : ''}`,
  );
  return [
    `Imported ${file}: ${counted(s.lines, 'line')}`,
    `  recorded            ${s.recorded} (${counted(s.missionsCompleted, 'mission')} completed, ${counted(s.pointsCredited, 'point')} credited)`,
    `  already recorded    ${s.duplicates}`,
    `  suppressed          ${counted(s.suppressed.repeatSuppressed, 'back-to-back repeat')}, ${s.suppressed.rateLimited} over a rate limit`,
    `  rejected            ${s.rejected}${s.rejected > s.rejections.length ? ` (the first ${s.rejections.length} listed)` : ''}`,
    ...rejected,
  ].join('\n');
}

const RESTORE_STEPS = {
  read: 'reading the document',
  parsed: 'parsed; validating the program',
  validated: 'valid; applying in one transaction',
  applied: 'applied',
} as const;

/** What a program change did: its missions and actions, and the progress it archived. */
function programCounts(r: { missions: number; actions: number; progressArchived: { parties: number } }): string {
  const archived = counted(r.progressArchived.parties, 'user or group', 'users and groups');
  return `${counted(r.missions, 'mission')}, ${counted(r.actions, 'action')}; progress on removed rules archived for ${archived}`;
}

/** A program file's JSON, checked as an HTTP PUT's body is (not JSON: malformed_body; too deep; not well-formed Unicode). */
function programFile(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  checkNesting(text);
  let program: unknown;
  try {
    program = JSON.parse(text);
  } catch (error) {
    throw new AppError('malformed_body', `${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  checkWellFormed(text, program, '');
  return program;
}

async function existingSite(context: CliContext, siteId: string): Promise<string> {
  if (!(await context.sites.listSites()).some((site) => site.site_id === siteId)) throw new AppError('not_found', `Site "${siteId}" does not exist`);
  return siteId;
}

function credentialsText(verb: string, c: { siteId: string; clientId: string; clientSecret: string; role: string }): string {
  return [
    `${verb} ${c.role} client for site ${c.siteId}. The secret is shown only now:`,
    `  client_id      ${c.clientId}`,
    `  client_secret  ${c.clientSecret}`,
  ].join('\n');
}
