// The CLI builds its services as the server does (src/services.ts, issue 25): through the real
// `questline import`, a leaderboard update that fails after its commit is reported on stderr, not
// dropped; and the import's ActionService keeps as many parties as PARTY_CACHE_SIZE says.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/index.js';
import type { Config } from '../../src/config.js';
import { configurations, freshDatabase, testConfig } from '../helpers/app.js';
import { capture, captured } from '../helpers/cli.js';
import { playProgram } from '../helpers/fixtures.js';

/** The size of every party cache made (an ActionService makes one). */
const cacheSizes = vi.hoisted((): number[] => []);
vi.mock('../../src/modules/actions/party-cache.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/modules/actions/party-cache.js')>();
  class RecordedPartyCache extends original.PartyCache {
    constructor(maxParties: number) {
      super(maxParties);
      cacheSizes.push(maxParties);
    }
  }
  return { ...original, PartyCache: RecordedPartyCache };
});

describe.each(configurations)('the CLI’s services (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let config: Config;
  let dir: string;
  let sites = 0;

  /** A new site with an all-time board of Points, and an NDJSON file of `users` playing once each. */
  async function siteAndFile(users: string[]): Promise<{ siteId: string; file: string }> {
    sites += 1;
    const siteId = `graph-${sites}`;
    await run(['site', 'create', '--name', siteId, '--id', siteId, '--json'], config, capture().out);
    const program = join(dir, `${siteId}.json`);
    writeFileSync(
      program,
      JSON.stringify(playProgram(siteId, [{ id: 'lb-all', name: 'All time', metric: { type: 'points', category: 'Points' }, period: 'allTime' }])),
    );
    await run(['program', 'put', '--site', siteId, program, '--json'], config, capture().out);
    const file = join(dir, `${siteId}.ndjson`);
    const at = new Date(Date.now() - 60_000).toISOString();
    writeFileSync(file, users.map((userId) => `${JSON.stringify({ userId, action: 'play', timestamp: at })}\n`).join(''));
    return { siteId, file };
  }

  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    config = testConfig(configuration, fresh.config);
    dir = mkdtempSync(join(tmpdir(), 'questline-cli-services-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await fresh.drop();
  });

  it('gives the import’s ActionService a party cache of PARTY_CACHE_SIZE', async () => {
    const { siteId, file } = await siteAndFile(['ann', 'bob']);
    const { printed, out } = capture();
    cacheSizes.length = 0;
    await run(['import', '--site', siteId, file, '--json'], { ...config, partyCacheSize: 7 }, out);
    expect(printed[0]?.result).toMatchObject({ recorded: 2, rejected: 0 });
    expect(cacheSizes).toEqual([7]);
  });

  it.runIf(configuration === 'scale-out')('reports a leaderboard update that fails after its commit on stderr', async () => {
    const { siteId, file } = await siteAndFile(['ann']);
    // The window's member versions held as a string: the board script fails (WRONGTYPE) after the commit.
    const redis = new Redis(config.redisUrl as string);
    try {
      await redis.set(`${config.redisPrefix}lb:{${siteId}}:lb-all:0:members`, 'not a hash');
      const { printed, out } = capture();
      const { stderr } = await captured(() => run(['import', '--site', siteId, file, '--json'], config, out));
      expect(printed[0]?.result).toMatchObject({ recorded: 1, rejected: 0 });
      expect(stderr).toMatch(/^questline: leaderboard update failed after its commit: .*WRONGTYPE/m);
    } finally {
      redis.disconnect();
    }
    // The score itself is committed: the board reads it from the rows once reloaded.
    const score = await fresh.database.db
      .selectFrom('leaderboard_scores')
      .select('score')
      .where('site_id', '=', siteId)
      .where('party_id', '=', 'ann')
      .executeTakeFirstOrThrow();
    expect(Number(score.score)).toBe(10);
  });
});
