// On an empty database `npm start` creates a demo site with the demo program
// (examples/demo-program.xml) and prints its credentials, so a newcomer can call the API within a
// minute (SPEC §3).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../errors.js';
import { PACKAGE_ROOT } from '../../package.js';
import type { BackupService } from '../backup/service.js';
import type { ClientCredentials, SitesService } from './service.js';

export const DEMO_SITE_ID = 'demo';

export interface DemoSite {
  siteId: string;
  admin: ClientCredentials;
  app: ClientCredentials;
}

/** Creates the demo site when no site exists; undefined when there was already one. */
export const DEMO_PROGRAM_FILE = join(PACKAGE_ROOT, 'examples', 'demo-program.xml');

export async function ensureDemoSite(sites: SitesService, backups: BackupService): Promise<DemoSite | undefined> {
  if ((await sites.listSites()).length > 0) return undefined;
  try {
    await sites.createSite({ siteId: DEMO_SITE_ID, name: 'Questline demo', timezone: 'America/Los_Angeles' });
  } catch (error) {
    // Another node created it first.
    if (error instanceof AppError && error.code === 'conflict') return undefined;
    throw error;
  }
  await backups.restore(DEMO_SITE_ID, readFileSync(DEMO_PROGRAM_FILE, 'utf8'));
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
    `  The UI blocks, live: ${baseUrl}/demo`,
    '',
  ].join('\n');
}
