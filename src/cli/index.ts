// The `questline` command: parses the arguments, runs the command (src/cli/commands.ts for those
// over a site's data), and turns its errors into exit codes and messages.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { openReachableDatabase } from '../db/index.js';
import { AppError, type FieldError } from '../errors.js';
import { serve } from '../server.js';
import { StartupError } from '../startup.js';
import { COMMANDS, OPTIONS, type Output } from './commands.js';
import { errorText, openCliContext } from './context.js';
import { commandName, UsageError, USAGE, usageFor } from './usage.js';

/** Runs one command; resolves with the exit code when it is not 0. */
export async function run(argv: string[], config: Config, out: Output): Promise<number | void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command] = positionals;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command === undefined) throw new UsageError('no command given', true);
  if (command === 'serve') return serve(config);
  if (command === 'migrate') return migrate(config, out);
  if (command === 'worker') return work(config);

  const key = commandName(positionals);
  const context = await openCliContext(config);
  try {
    const named = COMMANDS.get(key);
    if (named === undefined) throw new UsageError(`Unknown command "${key}"`);
    return await named({ context, config, values, positionals, out });
  } finally {
    await context.close();
  }
}

/** `questline migrate`: the migrations the database has not had, without the services. */
async function migrate(config: Config, out: Output): Promise<void> {
  const database = await openReachableDatabase(config.database);
  try {
    const applied = await database.migrate();
    out.print({ applied }, applied.length === 0 ? 'Database is up to date' : `Applied: ${applied.join(', ')}`);
  } finally {
    await database.close();
  }
}

/** `questline worker`: the webhook dispatcher alone, until SIGTERM or SIGINT (the attempts in flight finish first). */
async function work(config: Config): Promise<void> {
  const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  const context = await openCliContext(config, (error, what) => log(`${what}: ${errorText(error)}`));
  context.webhooks.start();
  log('worker: delivering webhooks');
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  log(`worker: ${signal}; finishing the deliveries in flight`);
  await context.webhooks.stop();
  await context.close();
  log('worker: stopped');
}

export async function cli(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const out: Output = {
    json,
    print(result, human) {
      process.stdout.write(`${json ? JSON.stringify(result) : human}\n`);
    },
  };
  /** --json: the error as one document on stdout; always: the text for a person on stderr. */
  const fail = (status: number, error: { error: string; message: string; errors?: FieldError[] }, text: string): number => {
    if (json) process.stdout.write(`${JSON.stringify(error)}\n`);
    process.stderr.write(`${text}\n`);
    return status;
  };
  try {
    return (await run(argv, loadConfig(), out)) ?? 0;
  } catch (error) {
    if (error instanceof ConfigError) return fail(1, { error: 'invalid_configuration', message: error.message }, `questline: ${error.message}`);
    if (error instanceof StartupError) return fail(1, { error: 'startup_failed', message: error.message }, `questline: ${error.message}`);
    if (error instanceof UsageError && error.everything) return fail(2, { error: 'usage', message: error.message }, USAGE);
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      // The command's own usage line, not the whole help (the unknown option may be why the strict parse failed).
      const { positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false });
      const message = usageMessage(error);
      return fail(2, { error: 'usage', message }, `questline: ${message}\n${usageFor(positionals)}`);
    }
    if (error instanceof AppError) {
      const { errors } = error.options;
      return fail(1, { error: error.code, message: error.message, ...(errors !== undefined ? { errors } : {}) }, `questline: ${appErrorText(error)}`);
    }
    throw error;
  }
}

/** Node's words for an unknown option go on about positional arguments; say just what is wrong. */
function usageMessage(error: Error): string {
  const option = 'code' in error && error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'([^']+)'/.exec(error.message)?.[1] : undefined;
  return option !== undefined ? `unknown option ${option}` : error.message;
}

/** The message, then each field error on a line of its own, unless the message says it already. */
function appErrorText(error: AppError): string {
  const details = (error.options.errors ?? []).map((e) => `${e.path}: ${e.message}`).filter((detail) => !error.message.includes(detail));
  return [error.message, ...details.map((detail) => `  ${detail}`)].join('\n');
}
