// The progress of every mission an action moves is written in one statement (ActionsRepository
// .setProgress): new rows and updated rows together, one row per mission and rule (the last given
// wins, as a statement may not update a row twice), nothing for an empty decision. Both dialects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/index.js';
import { ActionsRepository } from '../../../src/modules/actions/repository.js';
import { configurations, freshDatabase } from '../../helpers/app.js';

describe.each(configurations)('progress writes (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  let repository: ActionsRepository;
  const party = { siteId: 's-progress', type: 'user' as const, id: 'ann' };
  const rows = () =>
    database.db
      .selectFrom('mission_progress')
      .select(['party_id', 'mission_id', 'rule_id', 'window_start', 'current', 'updated_at'])
      .where('site_id', '=', party.siteId)
      .orderBy('party_id')
      .orderBy('mission_id')
      .orderBy('rule_id')
      .execute();

  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    database = fresh.database;
    repository = new ActionsRepository(database.dialect);
  });
  afterAll(async () => fresh.drop());

  it('inserts and updates the rows of several missions at once, the last value given for a rule winning', async () => {
    await database.transaction((trx) =>
      repository.setProgress(trx, party, [
        { missionId: 'm-1', windowStart: 0, rules: [{ ruleId: 'r-1', current: 1 }, { ruleId: 'r-2', current: 5 }] },
        { missionId: 'm-2', windowStart: 100, rules: [{ ruleId: 'r-1', current: 2 }] },
      ], 10),
    );
    await database.transaction((trx) =>
      repository.setProgress(trx, party, [
        { missionId: 'm-2', windowStart: 200, rules: [{ ruleId: 'r-1', current: 1 }] },
        { missionId: 'm-3', windowStart: 0, rules: [{ ruleId: 'r-1', current: 7 }] },
        { missionId: 'm-3', windowStart: 0, rules: [{ ruleId: 'r-1', current: 8 }] },
      ], 20),
    );
    await database.transaction((trx) => repository.setProgress(trx, party, [], 30));
    await database.transaction((trx) => repository.setProgress(trx, { ...party, id: 'bob' }, [{ missionId: 'm-1', windowStart: 0, rules: [{ ruleId: 'r-1', current: 3 }] }], 40));
    expect(await rows()).toEqual([
      { party_id: 'ann', mission_id: 'm-1', rule_id: 'r-1', window_start: 0, current: 1, updated_at: 10 },
      { party_id: 'ann', mission_id: 'm-1', rule_id: 'r-2', window_start: 0, current: 5, updated_at: 10 },
      { party_id: 'ann', mission_id: 'm-2', rule_id: 'r-1', window_start: 200, current: 1, updated_at: 20 },
      { party_id: 'ann', mission_id: 'm-3', rule_id: 'r-1', window_start: 0, current: 8, updated_at: 20 },
      { party_id: 'bob', mission_id: 'm-1', rule_id: 'r-1', window_start: 0, current: 3, updated_at: 40 },
    ]);
  });
});
