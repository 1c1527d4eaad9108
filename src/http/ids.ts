// SPEC §2 Ids: user, group and other ids are 1–255 letters, digits and -_.@:+. This is the one
// place path ids are validated: every path parameter of every route gets the Id schema unless the
// route declares its own params schema, and ids read from bodies use isValidId.
import fp from 'fastify-plugin';
import { Type } from 'typebox';

export const ID_PATTERN = '^[A-Za-z0-9\\-_.@:+]{1,255}$';
const idRegex = new RegExp(ID_PATTERN);

export const Id = Type.String({ pattern: ID_PATTERN, minLength: 1, maxLength: 255 });

export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && idRegex.test(value);
}

const PATH_PARAM = /:([A-Za-z0-9_]+)/g;

export const idParamsPlugin = fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      const names = [...route.url.matchAll(PATH_PARAM)].map((match) => match[1] as string);
      if (names.length === 0) return;
      route.schema ??= {};
      route.schema.params ??= Type.Object(Object.fromEntries(names.map((name) => [name, Id])));
    });
  },
  { name: 'id-params' },
);
