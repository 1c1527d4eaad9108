// The maintenance switch (SPEC §15): PUT /admin/maintenance makes a site answer 503 maintenance
// with Retry-After to every call but its admin clients'; nothing runs meanwhile; other sites and
// public routes stay up; turning it off restores service.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

const program = {
  site: { name: 'Maintenance', timezone: 'UTC' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'read', clientLoggable: true }],
};

describe.each(configurations)('maintenance switch (%s)', (configuration) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(configuration);
  });
  afterAll(async () => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: token !== undefined ? { authorization: `Bearer ${token}` } : {}, ...(payload !== undefined ? { payload } : {}) });
  const expectMaintenance = (response: LightMyRequestResponse, retryAfter: string, detail?: string) => {
    expect(response.statusCode, response.body).toBe(503);
    expect(response.headers['retry-after']).toBe(retryAfter);
    expect(response.json()).toMatchObject({ status: 503, code: 'maintenance', ...(detail !== undefined ? { detail } : {}) });
  };
  const setUp = async () => {
    const site: TestSite = await t.createSite();
    const c = { site, admin: await t.token(site.admin), app: await t.token(site.app), ann: await t.token(site.app, 'ann') };
    expect((await call('PUT', '/admin/program', c.admin, program)).statusCode).toBe(200);
    return c;
  };
  const actions = async (token: string) => (await call('GET', '/users/ann/actions', token)).json() as { response: unknown[] };

  it('answers 503 with Retry-After to app and user tokens, runs nothing, and lets admin clients work', async () => {
    const c = await setUp();
    const other = await setUp();
    expect((await call('GET', '/admin/maintenance', c.admin)).json()).toEqual({
      response: { enabled: false, retryAfterSeconds: 60, message: null, since: null },
    });
    const on = await call('PUT', '/admin/maintenance', c.admin, { enabled: true, retryAfterSeconds: 120, message: 'Upgrading; back at noon' });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ response: { enabled: true, retryAfterSeconds: 120, message: 'Upgrading; back at noon' } });

    expectMaintenance(await call('POST', '/users/ann/actions', c.app, { action: 'read' }), '120', 'Upgrading; back at noon');
    expectMaintenance(await call('POST', '/users/ann/actions', c.ann, { action: 'read' }), '120');
    expectMaintenance(await call('GET', '/challenges', c.ann), '120');
    // Admin clients keep working: they read and change the site during maintenance.
    expect((await actions(c.admin)).response).toEqual([]);
    expect((await call('GET', '/admin/program', c.admin)).statusCode).toBe(200);
    // Other sites, public routes and token requests are not the site's.
    expect((await call('POST', '/users/ann/actions', other.app, { action: 'read' })).statusCode).toBe(201);
    expect((await call('GET', '/health/live')).statusCode).toBe(200);
    expect(await t.token(c.site.app, 'bob')).toMatch(/^ey/);

    expect((await call('PUT', '/admin/maintenance', c.admin, { enabled: false })).json()).toMatchObject({ response: { enabled: false } });
    expect((await call('POST', '/users/ann/actions', c.app, { action: 'read' })).statusCode).toBe(201);
    // Only the action logged after maintenance exists.
    expect((await actions(c.app)).response).toHaveLength(1);
  });

  it('refuses the switch to app and user tokens, and invalid settings, changing nothing', async () => {
    const c = await setUp();
    for (const token of [c.app, c.ann]) expect((await call('PUT', '/admin/maintenance', token, { enabled: true })).statusCode).toBe(403);
    expect((await call('GET', '/admin/maintenance', c.app)).statusCode).toBe(403);
    for (const body of [{}, { enabled: 'yes' }, { enabled: true, retryAfterSeconds: 0 }, { enabled: true, extra: 1 }]) {
      expect((await call('PUT', '/admin/maintenance', c.admin, body)).json()).toMatchObject({ status: 400, code: 'validation_failed' });
    }
    expect((await call('GET', '/admin/maintenance', c.admin)).json()).toMatchObject({ response: { enabled: false } });
    expect((await call('GET', '/challenges', c.app)).statusCode).toBe(200);
  });
});
