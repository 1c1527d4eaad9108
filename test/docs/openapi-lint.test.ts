// The API reference passes its lint: Redocly with the committed rule set (redocly.yaml) over the
// document GET /docs/json serves (scripts/reference-lint.ts; `npm run reference:lint` prints the same).
import { describe, expect, it } from 'vitest';
import { lintReference } from '../../scripts/reference-lint.js';

describe('the API reference', () => {
  it('passes its lint with no problem, error or warning', async () => {
    const problems = await lintReference();
    expect(problems.map((problem) => `${problem.rule} ${problem.pointer}: ${problem.message}`)).toEqual([]);
  }, 60_000);

  it('reports what breaks a rule, so the lint can fail', async () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'Broken', version: '1.0.0', license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
      servers: [{ url: '/' }],
      tags: [{ name: 'things', description: 'Things' }],
      security: [],
      paths: {
        '/things': {
          post: {
            summary: 'Make a thing',
            tags: ['things'],
            requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
            responses: { '201': { description: 'Made' }, '400': { description: 'Bad', content: { 'application/json': { schema: { type: 'object' } } } } },
          },
        },
      },
    };
    const rules = new Set((await lintReference(document)).map((problem) => problem.rule));
    expect(rules).toEqual(new Set(['operation-operationId', 'rule/request-body-example', 'operation-4xx-problem-details-rfc7807']));
  }, 60_000);
});
