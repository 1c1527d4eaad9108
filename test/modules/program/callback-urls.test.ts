// The site's callback URLs (achievementCallbackUrl, giftNotifyUrl, itemPurchaseNotifyUrl) receive
// webhooks, so they are checked when written with the rule webhook endpoints follow (issue 23,
// item 9): http or https, no credentials, no literal loopback, private or link-local address
// unless WEBHOOK_ALLOW_PRIVATE_NETWORKS; a refused URL changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp } from '../../helpers/app.js';

const SETTINGS = ['achievementCallbackUrl', 'giftNotifyUrl', 'itemPurchaseNotifyUrl'] as const;
const REFUSED = [
  'http://127.0.0.1:8080/hook',
  'http://[::1]/hook',
  'http://10.0.0.5/hook',
  'http://169.254.169.254/latest/meta-data',
  'file:///etc/passwd',
  'https://user:pass@hooks.example.com/q',
  'gopher://hooks.example.com/',
];

const program = (site: Record<string, unknown>) => ({
  site: { name: 'Callbacks', timezone: 'UTC', ...site },
  pointCategories: [{ name: 'Points', isDefault: true }],
});

describe.each(configurations)('site callback URLs (%s)', (configuration) => {
  let t: TestApp;
  let admin: string;
  let siteId: string;

  const put = (url: string, payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url, headers: { authorization: `Bearer ${admin}` }, payload });
  const site = async () =>
    (await t.app.inject({ method: 'GET', url: '/admin/site', headers: { authorization: `Bearer ${admin}` } })).json<{ response: Record<string, unknown> }>()
      .response;

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    const created = await t.createSite();
    siteId = created.siteId;
    admin = await t.token(created.admin);
    expect((await put('/admin/program', program({ achievementCallbackUrl: 'https://hooks.example.com/q' }))).statusCode).toBe(200);
  });
  afterAll(async () => t.close());

  it.each(SETTINGS.flatMap((setting) => REFUSED.map((url) => [setting, url] as const)))(
    'refuses %s %s through the program and the site settings, changing nothing',
    async (setting, url) => {
      const before = await site();
      for (const [path, body, errorPath] of [
        ['/admin/program', program({ [setting]: url }), `site.${setting}`],
        ['/admin/site', { name: 'Callbacks', timezone: 'UTC', [setting]: url }, setting],
      ] as const) {
        const response = await put(path, body);
        expect(response.statusCode, response.body).toBe(422);
        expect(response.json()).toMatchObject({
          code: 'program_invalid',
          errors: [{ path: errorPath, message: expect.stringMatching(/refused|only http|credentials/) }],
        });
      }
      expect(await site()).toEqual(before);
    },
  );

  it('refuses a restore whose site names a loopback callback, locating it in the XML, and changes nothing', async () => {
    const before = await site();
    const backup = (await t.app.inject({ method: 'POST', url: '/backup', headers: { authorization: `Bearer ${admin}` }, payload: { name: 'now' } })).json<{
      response: { id: string };
    }>().response;
    const xml = (await t.app.inject({ method: 'GET', url: `/backup/${backup.id}`, headers: { authorization: `Bearer ${admin}` } })).body;
    const hostile = xml.replace('achievementCallbackUrl="https://hooks.example.com/q"', 'achievementCallbackUrl="http://127.0.0.1:6379/"');
    expect(hostile).not.toBe(xml);
    const response = await t.app.inject({
      method: 'POST',
      url: '/restore',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ type: '1', data: hostile }).toString(),
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ code: 'program_invalid', errors: [{ path: 'SiteConfiguration/@achievementCallbackUrl' }] });
    expect(await site()).toEqual(before);
  });

  it('lets a site whose stored callback URL predates the check edit the rest of its program', async () => {
    // As an earlier release stored it: a loopback URL, written past the check.
    const row = await t.database.db.selectFrom('site_programs').select('document').where('site_id', '=', siteId).executeTakeFirstOrThrow();
    const stored = JSON.parse(row.document) as { site: Record<string, unknown> };
    stored.site.giftNotifyUrl = 'http://127.0.0.1:9/gift';
    await t.database.db
      .updateTable('site_programs')
      .set({ document: JSON.stringify(stored) })
      .where('site_id', '=', siteId)
      .execute();
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/admin/actions',
        headers: { authorization: `Bearer ${admin}` },
        payload: { name: 'unrelated' },
      });
      expect(response.statusCode, response.body).toBe(201);
      // Setting it again to another refused URL is still refused.
      const again = await put('/admin/site', { ...(await site()), giftNotifyUrl: 'http://127.0.0.1:10/gift' });
      expect(again.statusCode).toBe(422);
    } finally {
      stored.site.giftNotifyUrl = undefined;
      await t.database.db
        .updateTable('site_programs')
        .set({ document: JSON.stringify(stored) })
        .where('site_id', '=', siteId)
        .execute();
    }
  });

  it('takes a public https URL and an empty one (no callback)', async () => {
    const response = await put('/admin/site', {
      name: 'Callbacks',
      timezone: 'UTC',
      achievementCallbackUrl: 'https://hooks.example.com/done',
      giftNotifyUrl: '',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await site()).toMatchObject({ achievementCallbackUrl: 'https://hooks.example.com/done' });
  });
});

describe.each(configurations)('site callback URLs with private networks allowed (%s)', (configuration) => {
  it('takes a loopback URL (development, tests)', async () => {
    const t = await buildTestApp(configuration, { config: { webhookAllowPrivateNetworks: true } });
    try {
      const admin = await t.token((await t.createSite()).admin);
      const response = await t.app.inject({
        method: 'PUT',
        url: '/admin/program',
        headers: { authorization: `Bearer ${admin}` },
        payload: program({ achievementCallbackUrl: 'http://127.0.0.1:9/hook' }),
      });
      expect(response.statusCode, response.body).toBe(200);
    } finally {
      await t.close();
    }
  });
});
