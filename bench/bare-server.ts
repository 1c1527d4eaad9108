// The floor: a bare Fastify JSON route in its own process, measured in the same run as Questline.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ status: 'ok' }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`Server listening at ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
