// The `questline` command. Every command takes --json for machine-readable output.
import { accessSync, constants, createReadStream, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import type { ClientRole } from '../db/schema.js';
import { openReachableDatabase } from '../db/index.js';
import { AppError } from '../errors.js';
import { ImportService, type ImportProgress, type ImportSummary } from '../modules/import/service.js';
import { VerifyService } from '../modules/verify/service.js';
import { webhookDispatcher } from '../modules/webhooks/dispatcher.js';
import { serve } from '../server.js';
import { StartupError } from '../startup.js';
import { openCliContext, type CliContext } from './context.js';

const USAGE = `Usage: questline <command> [options]

Commands:
  serve                                          start the HTTP server (what npm start runs)
  worker                                         deliver webhooks until stopped (SIGTERM/SIGINT); run
                                                 servers with WEBHOOK_DISPATCHER=false to leave it to workers
  migrate                                        apply pending database migrations
  site create --name NAME [--id ID] [--timezone TZ]
  site list
  client create --site SITE --role admin|app     prints the secret once
  client list --site SITE
  client rotate --client CLIENT                  new secret; revokes the old secret's tokens
  client delete --client CLIENT                  revokes every token of the client
  client rate --client CLIENT --rate N --burst N  the client's request rate (--default: the configured one)
  backup --site SITE                             print the site's configuration as backup XML
  restore --site SITE FILE                       restore a backup XML file (validated first; all or nothing)
  import --site SITE FILE.ndjson                 log a program's history (NDJSON actions) through the engine,
                                                 in order; run again after an interruption, it resumes
  leaderboards reload --site SITE                load the current windows of the site's boards into Redis
                                                 again from the database (repairs a lost update)
  verify [--site SITE]                           recompute balances, cap totals, completions, trophy cases
                                                 and levels from the ledger; exit code 1 on any drift

Options:
  --json    machine-readable output (one JSON document on stdout)
  --help    this text

Configuration comes from the environment (see README): DATABASE_URL, REDIS_URL, ...`;

const OPTIONS = {
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

class UsageError extends Error {}

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

interface Output {
  json: boolean;
  print(result: unknown, human: string): void;
}

/** Runs one command; resolves with the exit code when it is not 0. */
export async function run(argv: string[], config: Config, out: Output): Promise<number | void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command, sub] = positionals;
  if (values.help || command === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }

  if (command === 'serve') return serve(config);
  if (command === 'migrate') {
    const database = await openReachableDatabase(config.database);
    try {
      const applied = await database.migrate();
      out.print({ applied }, applied.length === 0 ? 'Database is up to date' : `Applied: ${applied.join(', ')}`);
    } finally {
      await database.close();
    }
    return;
  }

  if (command === 'worker') return work(config);

  const key = command === 'backup' || command === 'restore' || command === 'verify' || command === 'import' ? command : `${command} ${sub ?? ''}`;
  const context = await openCliContext(config);
  try {
    switch (key) {
      case 'site create': {
        const site = await context.sites.createSite({ name: required(values, 'name'), siteId: values.id, timezone: values.timezone });
        out.print({ siteId: site.site_id, name: site.name, timezone: site.timezone }, `Created site ${site.site_id} (${site.name}, ${site.timezone})`);
        return;
      }
      case 'site list': {
        const sites = (await context.sites.listSites()).map((s) => ({ siteId: s.site_id, name: s.name, timezone: s.timezone }));
        out.print({ sites }, sites.map((s) => `${s.siteId}\t${s.name}\t${s.timezone}`).join('\n') || 'No sites');
        return;
      }
      case 'client create': {
        const role = required(values, 'role');
        if (role !== 'admin' && role !== 'app') throw new UsageError('--role must be admin or app');
        const credentials = await context.sites.createClient(required(values, 'site'), role as ClientRole);
        out.print(credentials, credentialsText('Created', credentials));
        return;
      }
      case 'client list': {
        const clients = await context.sites.listClients(required(values, 'site'));
        out.print({ clients }, clients.map((c) => `${c.clientId}\t${c.role}\t${c.createdAt}`).join('\n') || 'No clients');
        return;
      }
      case 'client rotate': {
        const credentials = await context.sites.rotateClient(required(values, 'client'));
        out.print(credentials, credentialsText('Rotated', credentials));
        return;
      }
      case 'client delete': {
        const clientId = required(values, 'client');
        await context.sites.deleteClient(clientId);
        out.print({ clientId, deleted: true }, `Deleted client ${clientId}; its tokens stop working within 60 seconds on every node`);
        return;
      }
      case 'client rate': {
        const clientId = required(values, 'client');
        const limit = values.default ? null : { rate: Number(required(values, 'rate')), burst: Number(required(values, 'burst')) };
        const result = await context.sites.setClientRate(clientId, limit);
        out.print(result, result.rate === null ? `Client ${clientId} uses the configured request rate` : `Client ${clientId}: ${result.rate} requests/s, burst ${result.burst}`);
        return;
      }
      case 'backup': {
        process.stdout.write(await context.backups.backupXml(await existingSite(context, required(values, 'site'))));
        return;
      }
      case 'restore': {
        const siteId = await existingSite(context, required(values, 'site'));
        const { file } = inputFile(positionals[1], 'restore needs the backup file: questline restore --site SITE FILE');
        const xml = readFileSync(file, 'utf8');
        const result = await context.backups.restore(siteId, xml, (step) => {
          if (!out.json) process.stderr.write(`restore: ${RESTORE_STEPS[step]}\n`);
        });
        out.print({ siteId, ...result }, `Restored ${file} into site ${siteId}: program version ${result.version}, ${result.missions} missions, ${result.actions} actions; progress on removed rules archived for ${result.progressArchived.parties} users and groups`);
        return;
      }
      case 'import': {
        const siteId = await existingSite(context, required(values, 'site'));
        const { file, size } = inputFile(positionals[1], 'import needs the NDJSON file: questline import --site SITE FILE.ndjson');
        const input = createReadStream(file);
        const progress = importProgress(file, () => (size === 0 ? 1 : Math.min(1, input.bytesRead / size)), out.json);
        const summary = await new ImportService(context.actions).run(siteId, createInterface({ input, crlfDelay: Infinity }), { onProgress: progress.update });
        progress.done();
        out.print({ siteId, file, ...summary }, importText(file, summary));
        return summary.rejected === 0 ? 0 : 1;
      }
      case 'leaderboards reload': {
        const siteId = await existingSite(context, required(values, 'site'));
        if (config.redisUrl === undefined) {
          out.print({ siteId, reloaded: [] }, 'Leaderboards are kept in each server process (no REDIS_URL): every server loads them from the database when it starts; nothing to reload');
          return;
        }
        const tty = !out.json && process.stderr.isTTY;
        const reloaded = await context.leaderboards.reload(siteId, (boardId, loaded, total) => {
          if (out.json) return;
          const line = `reload: ${boardId}: ${loaded} of ${total} scores`;
          // A line that rewrites itself on a terminal; a line per batch of 100,000 (and the last) otherwise.
          if (tty) process.stderr.write(`\r${line}${loaded >= total ? '\n' : ''}`);
          else if (loaded % 100_000 === 0 || loaded >= total) process.stderr.write(`${line}\n`);
        });
        out.print({ siteId, reloaded }, reloaded.map((r) => `${r.boardId}: ${r.scores} scores reloaded`).join('\n') || 'The site has no leaderboards');
        return;
      }
      case 'verify': {
        const siteIds = values.site !== undefined ? [await existingSite(context, values.site)] : undefined;
        const report = await new VerifyService(context.database.db, context.programs).verify(siteIds);
        const summary = `Checked ${report.sites} site(s): ${report.checked.parties} users and groups, ${report.checked.ledgerEntries} ledger entries, ${report.checked.completions} completions`;
        const lines = report.drift.map((d) => `DRIFT ${d.siteId} ${d.check} ${d.subject}: ${d.detail}: expected ${String(d.expected)}, found ${String(d.actual)}`);
        out.print(report, [summary, ...lines, report.drift.length === 0 ? 'No drift' : `${report.drift.length} drift(s)`].join('\n'));
        return report.drift.length === 0 ? 0 : 1;
      }
      default:
        throw new UsageError(`Unknown command "${key.trim()}"`);
    }
  } finally {
    await context.close();
  }
}

/** `questline worker`: the webhook dispatcher alone, until SIGTERM or SIGINT (the attempts in flight finish first). */
async function work(config: Config): Promise<void> {
  const context = await openCliContext(config);
  const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  const dispatcher = webhookDispatcher({
    database: context.database,
    programs: context.programs,
    preferences: context.preferences,
    allowPrivateNetworks: config.webhookAllowPrivateNetworks,
    onError: (error) => log(`webhook dispatch failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  dispatcher.start();
  log('worker: delivering webhooks');
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  log(`worker: ${signal}; finishing the deliveries in flight`);
  await dispatcher.stop();
  await context.close();
  log('worker: stopped');
}

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
    const counts = `${lines} lines, ${summary.recorded} recorded, ${summary.duplicates} duplicates, ${summary.rejected} rejected, ${rate} lines/s`;
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
  const rejected = s.rejections.map((r) => `  line ${r.line}: ${r.code}: ${r.message}${r.errors !== undefined ? `: ${r.errors.map((e) => `${e.path} ${e.message}`).join('; ')}` : ''}`);
  return [
    `Imported ${file}: ${s.lines} lines`,
    `  recorded            ${s.recorded} (${s.missionsCompleted} missions completed, ${s.pointsCredited} points credited)`,
    `  already recorded    ${s.duplicates}`,
    `  suppressed          ${s.suppressed.repeatSuppressed} back-to-back repeats, ${s.suppressed.rateLimited} over a rate limit`,
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

export async function cli(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const out: Output = {
    json,
    print(result, human) {
      process.stdout.write(`${json ? JSON.stringify(result) : human}\n`);
    },
  };
  const fail = (code: string, message: string, status: number): number => {
    if (json) process.stdout.write(`${JSON.stringify({ error: code, message })}\n`);
    process.stderr.write(`questline: ${message}\n`);
    return status;
  };
  try {
    return (await run(argv, loadConfig(), out)) ?? 0;
  } catch (error) {
    if (error instanceof ConfigError) return fail('invalid_configuration', error.message, 1);
    if (error instanceof StartupError) return fail('startup_failed', error.message, 1);
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      return fail('usage', `${error.message}\n\n${USAGE}`, 2);
    }
    if (error instanceof AppError) {
      const details = error.options.errors?.map((e) => `${e.path}: ${e.message}`).join('; ');
      return fail(error.code, details ? `${error.message}: ${details}` : error.message, 1);
    }
    throw error;
  }
}
