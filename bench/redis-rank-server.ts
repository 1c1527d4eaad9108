// The raw reference for a user's standing on a Redis board (issue 24): a bare Fastify route that
// answers GET /rank/:userId?around=n with raw ioredis ZREVRANK + ZSCORE, then ZREVRANGE of the n
// entries on each side, in its own process, as a simple Redis leaderboard (one sorted set of user
// id → score) does.
//
// Questline's Redis board (src/modules/leaderboards/rankings.ts) is not such a set: its members are
// "reachedAt \0 id" with negated scores, so that ties list in the order they were reached, beside a
// hash of each member's newest version. A ZREVRANK of a user id finds nothing there, so this server
// first copies Questline's set RANK_SOURCE (its key: `${REDIS_PREFIX}lb:{site}:board:window:set`)
// into a plain one, RANK_KEY, of the same users and scores in the same Redis.
import Fastify from 'fastify';
import { Redis } from 'ioredis';

const source = process.env.RANK_SOURCE ?? '';
const key = process.env.RANK_KEY ?? '';
// As Questline's connection is made (src/infra/redis.ts): commands of one turn go out together.
const redis = new Redis(process.env.REDIS_URL ?? '', { enableAutoPipelining: true });

const started = performance.now();
await redis.del(key);
const BATCH = 10_000;
for (let from = 0; ; from += BATCH) {
  const items = await redis.zrange(source, from, String(from + BATCH - 1), 'WITHSCORES');
  if (items.length === 0) break;
  const pairs: string[] = [];
  for (let i = 0; i < items.length; i += 2)
    pairs.push(String(0 - Number(items[i + 1])), (items[i] as string).slice((items[i] as string).indexOf('\u0000') + 1));
  await redis.zadd(key, ...pairs);
}
const copied = await redis.zcard(key);
process.stdout.write(`COPIED ${copied} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

const app = Fastify({ logger: false });
app.get<{ Params: { userId: string }; Querystring: { around?: string } }>('/rank/:userId', async (request, reply) => {
  const { userId } = request.params;
  const around = Number(request.query.around ?? 5);
  const [position, score] = await Promise.all([redis.zrevrank(key, userId), redis.zscore(key, userId)]);
  if (position === null || score === null) return reply.code(404).send({ rank: null });
  const from = Math.max(0, position - around);
  const items = await redis.zrevrange(key, from, position + around, 'WITHSCORES');
  const entries = [];
  for (let i = 0; i < items.length; i += 2) entries.push({ userId: items[i], score: Number(items[i + 1]), rank: from + i / 2 + 1 });
  return { rank: position + 1, score: Number(score), entries };
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`Server listening at ${address}\n`);
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => redis.quit())
      .then(() => process.exit(0)),
);
