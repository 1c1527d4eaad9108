// GET/PUT /users/{u}/preferences, and the admin's PUT /admin/users/{u}/role and /level.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { deprecate } from '../../http/deprecation.js';
import { idParams } from '../../http/ids.js';
import { Envelope } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import type { CustomLevelsService } from './custom-levels.js';
import type { PreferencesService } from '../users/preferences.js';

const tags = ['profile'];
const Nullable = (description?: string, options: { deprecated?: true } = {}) =>
  Type.Union([Type.String(), Type.Null()], { ...(description ? { description } : {}), ...options });
const PreferencesBody = Type.Object({
  firstName: Nullable(),
  lastName: Nullable(),
  userProfileUrl: Nullable(),
  iconUrl: Nullable('The user image'),
  userPhotoUrl: Nullable('Deprecated (30 Sep 2026): the legacy image, still read; iconUrl falls back to it', { deprecated: true }),
  role: Nullable('Read-only here; set by admins'),
  custom: Type.Record(Type.String(), Type.String(), { description: 'Custom preferences (at most 50)' }),
});
/** 30 September 2026, when iconUrl replaced userPhotoUrl (interface document §9). */
const USER_PHOTO_URL_DEPRECATED = Date.UTC(2026, 8, 30);

const LevelRef = Type.Union([Type.Null(), Type.Object({ id: Type.String(), name: Type.String() })]);
const LevelSet = Type.Object({
  levelChanged: Type.Union([Type.Null(), Type.Object({ from: LevelRef, to: LevelRef, direction: Type.Union([Type.Literal('up'), Type.Literal('down')]) })]),
});

type PreferencesRoutes = FastifyPluginAsyncTypebox<{ preferences: PreferencesService; customLevels: CustomLevelsService }>;

export const preferencesRoutes: PreferencesRoutes = async (app, options) => {
  await app.register(userPreferenceRoutes, options);
  await app.register(userAdminRoutes, options);
};

/** The user's own preferences, read and written. */
const userPreferenceRoutes: PreferencesRoutes = async (app, { preferences }) => {
  app.get(
    '/users/:userId/preferences',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'getUserPreferences',
        tags,
        summary: "The user's name, image, profile link, role and custom preferences",
        params: idParams('userId'),
        response: { 200: Envelope(PreferencesBody) },
      },
    },
    async (request) => {
      const { userId } = request.params;
      return { response: await preferences.read(authOf(request).siteId, userId) };
    },
  );

  app.put(
    '/users/:userId/preferences',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'updateUserPreferences',
        tags,
        summary: 'Set preferences by name (others are kept; null or empty removes one). Writing userPhotoUrl is deprecated: use iconUrl',
        params: idParams('userId'),
        // Not validated by the schema: PreferencesService.write checks the names and values, with
        // the reason a name is refused (role is set by admins, custom ones go at the top level);
        // the schema documents the body.
        documentedBody: Type.Record(Type.String(), Type.Union([Type.String({ maxLength: 1000 }), Type.Null()]), {
          examples: [{ firstName: 'Ann', lastName: 'Lee', iconUrl: 'https://cdn.acme.example/people/ann.png', userProfileUrl: null, favoriteTopic: 'cooking' }],
        }),
        response: { 200: Envelope(PreferencesBody) },
      },
    },
    async (request, reply) => {
      const { userId } = request.params;
      const result = await preferences.write(authOf(request).siteId, userId, request.body);
      if (result.legacyWritten) {
        // No removal date was announced, so no Sunset.
        deprecate(reply, { since: USER_PHOTO_URL_DEPRECATED, successor: request.url.split('?')[0] as string, title: 'write iconUrl instead of userPhotoUrl' });
      }
      return { response: result.preferences };
    },
  );
};

/** What only an admin sets of a user: the role, and the level on sites with custom levels. */
const userAdminRoutes: PreferencesRoutes = async (app, { preferences, customLevels }) => {
  app.put(
    '/admin/users/:userId/role',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'setUserRole',
        tags: ['admin: users'],
        summary: "Set a user's role (read-only in preferences)",
        params: idParams('userId'),
        body: Type.Object({ role: Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Null()]) }, { examples: [{ role: 'team-lead' }] }),
        response: { 200: Envelope(PreferencesBody) },
      },
    },
    async (request) => {
      const { userId } = request.params;
      return { response: await preferences.setRole(authOf(request).siteId, userId, request.body.role) };
    },
  );

  app.put(
    '/admin/users/:userId/level',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'setUserLevel',
        tags: ['admin: users'],
        summary: "Set a user's level (sites with levelType custom)",
        params: idParams('userId'),
        body: Type.Object({ levelId: Type.String({ minLength: 1, maxLength: 255 }) }, { examples: [{ levelId: 'l-2' }] }),
        response: { 200: Envelope(LevelSet) },
      },
    },
    async (request) => {
      const { userId } = request.params;
      return { response: { levelChanged: await customLevels.set(authOf(request).siteId, userId, request.body.levelId) } };
    },
  );
};
