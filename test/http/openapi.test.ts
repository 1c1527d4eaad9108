// GET /docs/json is a valid OpenAPI 3.1 document generated from the route schemas; GET /docs is the
// interactive reference. Both are public.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp } from '../helpers/app.js';

interface Operation {
  tags?: string[];
  security?: unknown[];
  responses?: Record<string, unknown>;
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
