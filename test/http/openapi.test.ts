// GET /docs/json is a valid OpenAPI 3.1 document generated from the route schemas; GET /docs is the
// interactive reference. Both are public.
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp } from '../helpers/app.js';

interface Schema {
  type?: string;
  required?: string[];
  properties?: Record<string, Schema & { description?: string }>;
}

interface Operation {
  tags?: string[];
  security?: unknown[];
  deprecated?: boolean;
  parameters?: Array<{ name: string; in: string; deprecated?: boolean }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, { type: string; scheme?: string }> };
  security?: Record<string, unknown[]>[];
}

/** The path item for a route, whichever of its trailing-slash forms the generator used. */
function pathItem(document: OpenApiDocument, path: string): Record<string, Operation> | undefined {
  return document.paths[path] ?? document.paths[`${path}/`];
}

describe.each(configurations)('OpenAPI (%s)', (configuration) => {
  let t: TestApp;
  let document: OpenApiDocument;
  beforeAll(async () => {
    t = await buildTestApp(configuration);
    const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    document = response.json<OpenApiDocument>();
  });
  afterAll(async () => t.close());

  it('is an OpenAPI 3.1 document', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.title).toBe('Questline API');
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('validates against the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists the token endpoint as a public POST', () => {
    const token = pathItem(document, '/oauth/token');
    expect(token?.post).toBeDefined();
    expect(token?.post?.security).toEqual([]);
    expect(Object.keys(token?.post?.responses ?? {})).toContain('200');
  });

  it('lists the token request at /oauth/token/, as the interface document does, with grant_type, client_id and client_secret required', () => {
    expect(document.paths['/oauth/token']).toBeUndefined();
    const body = document.paths['/oauth/token/']?.post?.requestBody;
    expect(Object.keys(body?.content ?? {}).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    for (const { schema } of Object.values(body?.content ?? {})) {
      expect(schema.required?.sort()).toEqual(['client_id', 'client_secret', 'grant_type']);
      expect(schema.properties?.grant_type).toMatchObject({ enum: ['client_credentials'] });
      expect(Object.keys(schema.properties ?? {})).toContain('xoauth_end_user_id');
    }
  });

  it.each([
    ['post', '/users/{userId}/actions'],
    ['post', '/groups/{groupId}/actions'],
    ['post', '/users/{userId}/interactions-collection'],
    ['post', '/users/{userId}/award-ots'],
    ['post', '/users/{userId}/quizzes/{quizId}/questions/{questionId}/responses'],
    ['put', '/users/{userId}/preferences'],
    ['post', '/admin/users/{userId}/points'],
    ['put', '/admin/site'],
  ])('lists both a JSON and a form body for %s %s, with one schema', (method, path) => {
    const content = document.paths[path]?.[method]?.requestBody?.content ?? {};
    expect(Object.keys(content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(content['application/x-www-form-urlencoded']?.schema).toEqual(content['application/json']?.schema);
  });

  it.each([
    ['put', '/admin/program'],
    ['post', '/admin/challenges'],
    ['post', '/admin/quizzes'],
  ])('lists only a JSON body for %s %s, whose nested objects a form cannot carry', (method, path) => {
    expect(Object.keys(document.paths[path]?.[method]?.requestBody?.content ?? {})).toEqual(['application/json']);
  });

  // docs/deprecations.md lists each deprecated endpoint (`GET /search`) and parameter (`preferences` parameter of `GET …`).
  const deprecations = [
    ...readFileSync(new URL('../../docs/deprecations.md', import.meta.url), 'utf8').matchAll(
      /^\| (?:`(\w+)` parameter of )?`(GET|POST|PUT|PATCH|DELETE) ([^`]+)`/gm,
    ),
  ].map(([, parameter, method, path]) => ({
    what: `${parameter === undefined ? '' : `parameter ${parameter} of `}${method} ${path}`,
    parameter,
    method: (method as string).toLowerCase(),
    path: path as string,
  }));

  it.each(deprecations)('marks $what deprecated: true, as docs/deprecations.md lists it', ({ parameter, method, path }) => {
    // The page abbreviates path parameters ({u}, {x}).
    const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '\\{[^}]+\\}')}$`);
    const operations = Object.entries(document.paths)
      .filter(([candidate]) => pattern.test(candidate))
      .map(([, item]) => item[method]);
    expect(operations).toHaveLength(1);
    if (parameter === undefined) expect(operations[0]?.deprecated).toBe(true);
    else expect(operations[0]?.parameters?.find((p) => p.name === parameter)).toMatchObject({ in: 'query', deprecated: true });
  });

  it('finds the deprecated search endpoint and recipients parameter in docs/deprecations.md', () => {
    expect(deprecations.map(({ what }) => what)).toEqual(
      expect.arrayContaining(['GET /search', 'parameter preferences of GET /users/{u}/exchanges/{x}/recipients']),
    );
  });

  it("names the exchange points budget's fields as docs/recognitions.md does, amount being the exchange's budget.amount", () => {
    const schema = document.paths['/users/{userId}/exchanges/{exchangeId}/points']?.get?.responses?.['200']?.content?.['application/json']?.schema;
    const budget = schema?.properties?.response;
    const row = readFileSync(new URL('../../docs/recognitions.md', import.meta.url), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('| `GET /users/{u}/exchanges/{x}/points`'));
    const documented = /`\{([^}]+)\}`/.exec(row ?? '')?.[1]?.split(', ');
    expect(Object.keys(budget?.properties ?? {})).toEqual(documented);
    expect(budget?.required).toEqual(documented);
    expect(budget?.properties?.amount?.description).toMatch(/budget\.amount/);
    expect(row).toMatch(/budget\.amount/);
    expect(row).not.toMatch(/SPEC/);
  });

  it('lists the health endpoints as public GETs', () => {
    for (const path of ['/health/live', '/health/ready']) {
      const item = pathItem(document, path);
      expect(item?.get, path).toBeDefined();
      expect(item?.get?.security, path).toEqual([]);
      expect(item?.get?.tags, path).toContain('health');
    }
  });

  it('declares bearer authentication as the default', () => {
    expect(document.components?.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearer: [] }]);
  });

  it('does not document its own documentation routes', () => {
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/docs'))).toEqual([]);
  });

  it('serves the interactive reference as HTML at /docs', async () => {
    let response = await t.app.inject({ method: 'GET', url: '/docs' });
    if (response.statusCode >= 300 && response.statusCode < 400) {
      const location = response.headers.location;
      expect(typeof location).toBe('string');
      response = await t.app.inject({ method: 'GET', url: new URL(String(location), 'http://localhost/docs').pathname });
    }
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toMatch(/<html/i);
  });

  it('serves the documentation without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/json', headers: { authorization: 'Bearer not-a-token' } });
    expect(response.statusCode).toBe(200);
  });
});
