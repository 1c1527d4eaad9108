// Every operation of the OpenAPI document (GET /docs/json) is one a code generator can name: an
// operationId of its own even in lower case (openapi-generator, Kiota and orval name methods and
// files after it), in lowerCamelCase, verb first. That each operation has one, and that every
// request body has a valid example, is the lint's (redocly.yaml, test/docs/openapi-lint.test.ts).
import type { OpenAPI3 } from 'openapi-typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/client-schema.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  method: string;
  path: string;
  operationId?: string;
}

function operationsOf(document: OpenAPI3): Operation[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((method) => item !== undefined && method in item).map((method) => ({
      method,
      path,
      ...(item as Record<string, Omit<Operation, 'method' | 'path'>>)[method],
    })),
  );
}

describe('the operations of the OpenAPI document', () => {
  let document: OpenAPI3;
  let operations: Operation[];
  beforeAll(async () => {
    document = await openApiDocument();
    operations = operationsOf(document);
  });

  it('are all there (the document is not empty)', () => {
    expect(operations.length).toBeGreaterThan(100);
  });

  // Compared in lower case: generators that write a file per operation may meet a case-insensitive file system.
  it('each have their own operationId, in any case', () => {
    const byId = new Map<string, string[]>();
    for (const { method, path, operationId } of operations) {
      const id = operationId?.toLowerCase();
      if (id !== undefined) byId.set(id, [...(byId.get(id) ?? []), `${method} ${path}`]);
    }
    expect([...byId].filter(([, sharing]) => sharing.length > 1)).toEqual([]);
  });

  it('name them in lowerCamelCase', () => {
    expect(operations.map(({ operationId }) => operationId).filter((id) => !/^[a-z][A-Za-z0-9]*$/.test(id ?? ''))).toEqual([]);
  });

  it('name them verb first, with a verb a person would say', () => {
    const verb =
      /^(list|get|search|create|replace|update|set|delete|add|remove|log|import|reverse|adjust|give|answer|redeem|issue|debit|refund|rotate|redeliver|restore|preview)[A-Z]/;
    expect(operations.map(({ operationId }) => operationId).filter((id) => !verb.test(id ?? ''))).toEqual([]);
  });

  it.each([
    ['post', '/users/{userId}/actions', 'logUserAction'],
    ['post', '/groups/{groupId}/actions', 'logGroupAction'],
    ['delete', '/users/{userId}/actions/{eventId}', 'reverseUserAction'],
    ['post', '/oauth/token/', 'issueToken'],
    ['get', '/admin/actions', 'listActionDefinitions'],
    ['get', '/admin/actions/{id}', 'getActionDefinition'],
    ['put', '/admin/challenges/{id}', 'replaceChallengeDefinition'],
    ['delete', '/admin/point-categories/{id}', 'deletePointCategory'],
    ['post', '/admin/quizzes', 'createQuiz'],
    ['get', '/search', 'searchDefinitions'],
  ])('names %s %s %s, from the route or the table that builds it', (method, path, id) => {
    expect(operations.find((operation) => operation.method === method && operation.path === path)?.operationId).toBe(id);
  });
});
