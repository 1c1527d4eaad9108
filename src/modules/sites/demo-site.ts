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

export const DEMO_PROGRAM_FILE = join(PACKAGE_ROOT, 'examples', 'demo-program.xml');

/** Creates the demo site when no site exists; undefined when there was already one. */
export async function ensureDemoSite(sites: SitesService, backups: BackupService): Promise<DemoSite | undefined> {
  if ((await sites.listSites()).length > 0) return undefined;
  try {
    await sites.createSite({ siteId: DEMO_SITE_ID, name: 'Questline demo', timezone: 'America/Los_Angeles' });
  } catch (error) {
    // Another node created it first.
    if (error instanceof AppError && error.code === 'conflict') return undefined;
    throw error;
  }
  // Questline itself loads it: no client changed the program (the history names none).
  await backups.restore({ siteId: DEMO_SITE_ID, clientId: null }, readFileSync(DEMO_PROGRAM_FILE, 'utf8'));
  return {
    siteId: DEMO_SITE_ID,
    admin: await sites.createClient(DEMO_SITE_ID, 'admin'),
    app: await sites.createClient(DEMO_SITE_ID, 'app'),
  };
}

export async function demoSiteExists(sites: SitesService): Promise<boolean> {
  return (await sites.listSites()).some((site) => site.site_id === DEMO_SITE_ID);
}

/** A value as one shell word (ids and secrets are URL-safe characters already; anything else is quoted). */
const shellWord = (value: string) => (/^[\w.:/@%+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

/** Where to go next; the console (when it is served) is signed in to with an admin client's id and secret. */
const links = (baseUrl: string, console: boolean) => [
  `  Start here: ${baseUrl}/`,
  `  API reference: ${baseUrl}/docs`,
  `  The UI blocks, live: ${baseUrl}/demo`,
  ...(console ? [`  The console, for the people who run the program (sign in with ADMIN_CLIENT_*): ${baseUrl}/console`] : []),
  '',
];

/** What the first start prints: the secrets, once, as the `export` lines README's first calls use. */
export function demoBanner(demo: DemoSite, baseUrl: string, console: boolean): string {
  return [
    '',
    `  Questline created a demo site ("${demo.siteId}"). Its secrets are shown only now; paste these lines`,
    "  into your shell for the README's first calls:",
    '',
    `    export CLIENT_ID=${shellWord(demo.app.clientId)} CLIENT_SECRET=${shellWord(demo.app.clientSecret)}`,
    `    export ADMIN_CLIENT_ID=${shellWord(demo.admin.clientId)} ADMIN_CLIENT_SECRET=${shellWord(demo.admin.clientSecret)}`,
    '',
    '  CLIENT_* is the app client (logs actions, reads everything); ADMIN_CLIENT_* may also change the',
    '  program and take backups. Get a token:',
    '',
    `    curl -s ${baseUrl}/oauth/token/ -d grant_type=client_credentials -d client_id=$CLIENT_ID -d client_secret=$CLIENT_SECRET`,
    '',
    ...links(baseUrl, console),
  ].join('\n');
}

/** What a later start prints: the secrets were shown once; how to get new ones. */
export function demoReminder(baseUrl: string, console: boolean): string {
  return [
    '',
    `  The demo site ("${DEMO_SITE_ID}") was created on an earlier start, which showed its secrets once.`,
    '  New credentials for it (with the DATABASE_URL this server uses; it prints the id and the secret):',
    '',
    `    npx questline client create --site ${DEMO_SITE_ID} --role app       # export them as CLIENT_ID and CLIENT_SECRET`,
    `    npx questline client create --site ${DEMO_SITE_ID} --role admin     # as ADMIN_CLIENT_ID and ADMIN_CLIENT_SECRET`,
    '',
    ...links(baseUrl, console),
  ].join('\n');
}
