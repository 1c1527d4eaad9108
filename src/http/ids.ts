// SPEC §2 Ids: user, group and other ids are 1–255 letters, digits and -_.@:+. This is the one
// place path ids are validated: every route declares its path parameters in its schema, ids with
// the Id schema (idParams), and ids read from bodies use isValidId.
import fp from 'fastify-plugin';
import { Type, type TObject, type TString } from 'typebox';

export const ID_PATTERN = '^[A-Za-z0-9\\-_.@:+]{1,255}$';
const idRegex = new RegExp(ID_PATTERN);

export const Id = Type.String({ pattern: ID_PATTERN, minLength: 1, maxLength: 255 });

export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && idRegex.test(value);
}

/** The params schema of a route whose path parameters are ids: `idParams('userId', 'challengeId')`. */
export function idParams<const Names extends readonly string[]>(...names: Names): TObject<{ [Name in Names[number]]: TString }> {
  // Object.fromEntries cannot say which keys it makes; these are exactly the names given.
  const properties = Object.fromEntries(names.map((name) => [name, Id])) as { [Name in Names[number]]: TString };
  return Type.Object(properties);
}

/** The params of a route served for users and for groups alike (`/users/:userId/…`, `/groups/:groupId/…`), and its other ids. */
export function partyParams<const Names extends readonly string[]>(party: 'user' | 'group', ...names: Names) {
  return party === 'user' ? idParams('userId', ...names) : idParams('groupId', ...names);
}

/** The id of the party of such a route. */
export function partyIdOf(params: { userId: string } | { groupId: string }): string {
  return 'userId' in params ? params.userId : params.groupId;
}

const PATH_PARAM = /:([A-Za-z0-9_]+)/g;

/** The names of the path's parameters (`/users/:userId/x/:id` → userId, id). */
function pathParams(url: string): string[] {
  return [...url.matchAll(PATH_PARAM)].map((match) => match[1] as string);
}

/** The properties a route's params schema declares (none when it has no object schema). */
function declaredParams(schema: unknown): object {
  if (typeof schema !== 'object' || schema === null || !('properties' in schema)) return {};
  return typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {};
}

/**
 * Keeps it so: a route whose params schema leaves out one of its path parameters fails at start-up
 * (as a route without config.access does, src/plugins/auth.ts), so that no handler reads a path
 * parameter unchecked or untyped.
 */
export const idParamsPlugin = fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      const declared = declaredParams(route.schema?.params);
      const missing = pathParams(route.url).filter((name) => !(name in declared));
      if (missing.length > 0) {
        throw new Error(`Route ${String(route.method)} ${route.url} declares no params schema for ${missing.join(', ')} (use idParams in src/http/ids.ts)`);
      }
    });
  },
  { name: 'id-params' },
);
