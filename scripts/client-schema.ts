// The types of @questline/client (clients/typescript/src/schema.d.ts), generated from the OpenAPI
// document the service serves at /docs/json. The app is built in process on a throwaway SQLite
// file and asked with app.inject, so no network and no running server are needed.
//
//   npm run client:generate    write the file (commit it)
//
// test/client/schema-drift.test.ts generates the same text in memory and fails when the committed
// file differs, so a changed route fails CI until the client is regenerated.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/index.js';
import { PACKAGE_ROOT } from '../src/package.js';

export const CLIENT_SCHEMA_FILE = join(PACKAGE_ROOT, 'clients/typescript/src/schema.d.ts');

const HEADER = `// Generated from Questline's OpenAPI document (GET /docs/json) by openapi-typescript: do not edit.
// Regenerate after changing a route: npm run client:generate (at the repository root).
// test/client/schema-drift.test.ts fails while this file differs from what the routes declare.
`;

/** The OpenAPI document of the current routes, from an app built in process. */
export async function openApiDocument(): Promise<OpenAPI3> {
  const dir = mkdtempSync(join(tmpdir(), 'questline-client-schema-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', DEMO_SITE: 'false', TOKEN_SECRET: 'client-schema-generation-secret-0123456789' });
  const database = openDatabase({ kind: 'sqlite', filename: join(dir, 'questline.db') });
  try {
    await database.migrate();
    const app = await buildApp({ ...config, database: { kind: 'sqlite', filename: join(dir, 'questline.db') } }, { database });
    try {
      const response = await app.inject({ method: 'GET', url: '/docs/json' });
      if (response.statusCode !== 200) throw new Error(`GET /docs/json answered ${response.statusCode}`);
      return response.json() as OpenAPI3;
    } finally {
      await app.close();
    }
  } finally {
    await database.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The stable `code` of a problem+json answer, as the document's Problem schema lists them. */
const ERROR_CODE_SOURCE = `/** The stable \`code\` of a problem+json answer (docs/errors.md): the document's Problem schema. */\nexport type ErrorCode = components['schemas']['Problem']['code'];\n`;

/** The text of schema.d.ts for the current routes (or for `document`, when the caller has it already). */
export async function clientSchemaSource(document?: OpenAPI3): Promise<string> {
  const nodes = await openapiTS(document ?? (await openApiDocument()));
  return `${HEADER}\n${astToString(nodes)}\n${ERROR_CODE_SOURCE}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const source = await clientSchemaSource();
  writeFileSync(CLIENT_SCHEMA_FILE, source);
  console.log(`wrote ${CLIENT_SCHEMA_FILE} (${(Buffer.byteLength(source) / 1024).toFixed(0)} KiB)`);
}
