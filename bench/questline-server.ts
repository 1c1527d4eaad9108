// Questline's real HTTP stack (buildApp) on a site with the benchmark program (./workload.ts), plus
// one extra route that declares client access, to measure authentication and rate limiting alone.
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { benchProgram } from './workload.js';

const config = loadConfig({ ...process.env, DEMO_SITE: 'false', LOG_LEVEL: 'warn' });
const app = await buildApp(config);
app.get('/bench/authenticated', { config: { access: 'client' } }, async () => ({ status: 'ok' }));
const site = await app.services.sites.createSite({ name: 'Bench' });
const client = await app.services.sites.createClient(site.site_id, 'app');
await app.services.programs.replace(site.site_id, benchProgram());
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`CLIENT ${client.clientId} ${client.clientSecret}\nServer listening at ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
