// Questline's real HTTP stack (buildApp) with one extra route that declares client access, so the
// benchmark can measure authentication and rate limiting before any product route exists.
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const config = loadConfig({ ...process.env, DEMO_SITE: 'false', LOG_LEVEL: 'warn' });
const app = await buildApp(config);
app.get('/bench/authenticated', { config: { access: 'client' } }, async () => ({ status: 'ok' }));
const site = await app.services.sites.createSite({ name: 'Bench' });
const client = await app.services.sites.createClient(site.site_id, 'app');
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`CLIENT ${client.clientId} ${client.clientSecret}\nServer listening at ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
