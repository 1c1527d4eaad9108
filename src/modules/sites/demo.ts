// On an empty database `npm start` creates a demo site and prints its credentials, so a newcomer
// can call the API within a minute (SPEC §3). Later issues fill the demo program.
import { AppError } from '../../errors.js';
import type { ClientCredentials, SitesService } from './service.js';

export const DEMO_SITE_ID = 'demo';

export interface DemoSite {
  siteId: string;
  admin: ClientCredentials;
  app: ClientCredentials;
}

/** Creates the demo site when no site exists; undefined when there was already one. */
export async function ensureDemoSite(sites: SitesService): Promise<DemoSite | undefined> {
  if ((await sites.listSites()).length > 0) return undefined;
  try {
    await sites.createSite({ siteId: DEMO_SITE_ID, name: 'Questline demo', timezone: 'America/Los_Angeles' });
  } catch (error) {
    // Another node created it first.
    if (error instanceof AppError && error.code === 'conflict') return undefined;
    throw error;
  }
  return {
    siteId: DEMO_SITE_ID,
    admin: await sites.createClient(DEMO_SITE_ID, 'admin'),
    app: await sites.createClient(DEMO_SITE_ID, 'app'),
  };
}

export function demoBanner(demo: DemoSite, baseUrl: string): string {
  return [
    '',
    '  Questline created a demo site. These secrets are shown once (rotate with `questline client rotate`):',
    '',
    `    site          ${demo.siteId}`,
    `    admin client  ${demo.admin.clientId}  secret ${demo.admin.clientSecret}`,
    `    app client    ${demo.app.clientId}  secret ${demo.app.clientSecret}`,
    '',
    '  Get a token:',
    `    curl -s ${baseUrl}/oauth/token/ -d grant_type=client_credentials -d client_id=${demo.app.clientId} -d client_secret=${demo.app.clientSecret}`,
    '',
    `  API reference: ${baseUrl}/docs`,
    '',
  ].join('\n');
}
