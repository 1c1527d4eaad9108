// What the examples read from the environment, read once here. The names are those of the
// `export` lines the first `npm start` prints for the demo site (README.md, "First calls").

export interface ExampleEnvironment {
  /** Where Questline answers: QUESTLINE_URL, default `npm start`'s address. */
  questlineUrl: string;
  /** The app client (CLIENT_ID, CLIENT_SECRET): logs actions, reads everything, mints user-level tokens. */
  app: { clientId: string; clientSecret: string };
  /** The admin client (ADMIN_CLIENT_ID, ADMIN_CLIENT_SECRET), when given: webhook endpoints, site settings. */
  admin: { clientId: string; clientSecret: string } | undefined;
  /** QUESTLINE_USER_ID, when given: the user the examples act for. */
  userId: string | undefined;
  /** EXAMPLE_PORT: where the web example listens (default 3100). */
  examplePort: number;
}

export function readEnvironment(env: NodeJS.ProcessEnv = process.env): ExampleEnvironment {
  const given = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const clientId = given('CLIENT_ID');
  const clientSecret = given('CLIENT_SECRET');
  if (clientId === undefined || clientSecret === undefined) {
    process.stderr.write(
      [
        'CLIENT_ID and CLIENT_SECRET are not set.',
        'The first `npm start` prints them for the demo site as two `export` lines: paste both into this shell.',
        'Later starts print the command that makes new ones: npx questline client create --site demo --role app',
        '',
      ].join('\n'),
    );
    process.exit(2);
  }
  const adminId = given('ADMIN_CLIENT_ID');
  const adminSecret = given('ADMIN_CLIENT_SECRET');
  const port = Number(given('EXAMPLE_PORT') ?? 3100);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`EXAMPLE_PORT must be a port number, not ${given('EXAMPLE_PORT')}\n`);
    process.exit(2);
  }
  return {
    questlineUrl: (given('QUESTLINE_URL') ?? 'http://127.0.0.1:3000').replace(/\/+$/, ''),
    app: { clientId, clientSecret },
    admin: adminId !== undefined && adminSecret !== undefined ? { clientId: adminId, clientSecret: adminSecret } : undefined,
    userId: given('QUESTLINE_USER_ID'),
    examplePort: port,
  };
}

/**
 * Ends the example with one readable line, not a stack trace, on the failures met first: Questline
 * not running at `questlineUrl`, or credentials it does not know.
 */
export function explainFailures(questlineUrl: string): void {
  process.on('uncaughtException', (error: Error & { cause?: { code?: string }; code?: string; status?: number }) => {
    if (error.cause?.code === 'ECONNREFUSED') process.stderr.write(`Nothing answers at ${questlineUrl}: start Questline (npm start) or set QUESTLINE_URL.\n`);
    else if (error.name === 'QuestlineError' && error.status === 401)
      process.stderr.write(`Questline refused the client (${error.code}): export the CLIENT_* lines this Questline printed (its database's demo site).\n`);
    else process.stderr.write(`${error.stack ?? String(error)}\n`);
    process.exit(1);
  });
}
