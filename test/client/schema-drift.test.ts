// The client's generated types match the current routes: the committed
// clients/typescript/src/schema.d.ts is what `npm run client:generate` writes now. A changed route
// (a new field, a new endpoint) fails here until the client is regenerated.
import { readFileSync } from 'node:fs';
import type { OpenAPI3 } from 'openapi-typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, clientSchemaSource, openApiDocument } from '../../scripts/client-schema.js';

describe('the client schema (clients/typescript/src/schema.d.ts)', () => {
  let document: OpenAPI3;
  beforeAll(async () => {
    document = await openApiDocument();
  });

  it('is what the current routes generate', async () => {
    const generated = await clientSchemaSource(document);
    const committed = readFileSync(CLIENT_SCHEMA_FILE, 'utf8');
    if (committed !== generated) {
      const committedLines = committed.split('\n');
      const generatedLines = generated.split('\n');
      const line = generatedLines.findIndex((text, index) => text !== committedLines[index]);
      expect.fail(
        `clients/typescript/src/schema.d.ts is out of date with the routes: run npm run client:generate and commit the result.\n` +
          `First difference at line ${line + 1}:\n  committed: ${committedLines[line] ?? '(end of file)'}\n  generated: ${generatedLines[line] ?? '(end of file)'}`,
      );
    }
  });

  it('covers every documented path', () => {
    const committed = readFileSync(CLIENT_SCHEMA_FILE, 'utf8');
    const missing = Object.keys(document.paths ?? {}).filter((path) => !committed.includes(`    ${JSON.stringify(path)}: {`));
    expect(missing).toEqual([]);
    expect(Object.keys(document.paths ?? {}).length).toBeGreaterThan(50);
  });
});
