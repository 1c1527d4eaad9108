// POST /admin/import (docs/import.md): an NDJSON body of up to 10 MB, logged line by line as it
// arrives, answered with the import's summary.
import { createInterface } from 'node:readline';
import { Readable, Transform } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { Envelope } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import { emptySummary, MAX_LISTED_REJECTIONS, type ImportService } from './service.js';

/** SPEC §2: imports take bodies of up to 10 MB (larger files: `questline import`, or several requests). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
const NDJSON = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];

const Summary = Type.Object({
  lines: Type.Integer({ description: 'Lines read, blank ones included' }),
  recorded: Type.Integer({ description: 'Actions recorded by this import' }),
  duplicates: Type.Integer({ description: 'Lines whose event id was recorded already (an earlier run): skipped' }),
  suppressed: Type.Object(
    { repeatSuppressed: Type.Integer(), rateLimited: Type.Integer() },
    { description: "Logged but not recorded: a back-to-back repeat of a suppressRepeats action, or over the action's rate limit" },
  ),
  rejected: Type.Integer({ description: 'Lines refused (not an import line, an unknown action, a bad timestamp, …)' }),
  rejections: Type.Array(
    Type.Object({
      line: Type.Integer(),
      code: Type.String(),
      message: Type.String(),
      errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    }),
    { description: `The first ${MAX_LISTED_REJECTIONS} rejected lines, with their line numbers` },
  ),
  missionsCompleted: Type.Integer(),
  pointsCredited: Type.Integer(),
});

export const importRoutes: FastifyPluginAsyncTypebox<{ imports: ImportService }> = async (app, { imports }) => {
  // Every body reaches the handler as the request's stream (the app's JSON and form parsers do not
  // apply here); the handler checks the type and enforces the limit.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.post(
    '/admin/import',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'importActionHistory',
        tags: ['actions'],
        summary: "Import a program's history: NDJSON lines of user and group actions, logged through the engine in order",
        consumes: NDJSON,
        // No body schema: the body is the request's stream, and each line is checked as it is read
        // (./lines.ts), with its line number. The schema documents it.
        documentedBody: Type.String({
          description:
            'One JSON object per line: a user action (userId, action, and value, metadata, eventId, timestamp as POST /users/{userId}/actions takes them) or a group action (groupId instead of userId)',
          examples: [
            '{"userId":"ann","action":"read_article","eventId":"cms-1041","timestamp":"2026-03-02T09:15:00Z"}\n{"userId":"ben","action":"watch_video","metadata":{"genre":"cooking"}}\n',
          ],
        }),
        response: { 200: Envelope(Summary) },
      },
    },
    async (request) => {
      const { siteId } = authOf(request);
      const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (!NDJSON.includes(type)) throw new AppError('unsupported_media_type', `Send the lines as ${NDJSON.join(', ')} (one JSON object per line)`);
      if (Number(request.headers['content-length'] ?? 0) > MAX_IMPORT_BYTES) throw tooLarge(0);
      const body = request.body;
      // Always so: the content type was checked, so the parser above gave the stream.
      if (!(body instanceof Readable)) throw new Error('The import body is not the request stream');
      // The lines up to the limit; past it the rest of the body is read and dropped (the 413's
      // answer drains what is left, src/plugins/error-handler.ts).
      let received = 0;
      let over = false;
      const limited = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          if (over) return done();
          received += chunk.length;
          if (received <= MAX_IMPORT_BYTES) return done(null, chunk);
          over = true;
          this.push(null);
          done();
        },
      });
      body.pipe(limited);
      const summary = emptySummary();
      await imports.run(siteId, createInterface({ input: limited, crlfDelay: Infinity }), { summary });
      if (over) throw tooLarge(summary.lines);
      return { response: summary };
    },
  );
};

/** The answer to a body over the limit: what was imported, and how to import the rest. */
function tooLarge(linesImported: number): AppError {
  const done =
    linesImported === 0
      ? 'nothing was imported'
      : linesImported === 1
        ? 'line 1 was imported (sent again, it is skipped as a duplicate)'
        : `lines 1–${linesImported} were imported (sent again, they are skipped as duplicates)`;
  return new AppError('payload_too_large', `An import body may hold at most 10 MB: ${done}; split the file, or use \`questline import\``);
}
