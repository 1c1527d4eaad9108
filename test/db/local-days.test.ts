// Local days in SQL (src/db/local-days.ts) on both dialects: the day number the database computes
// for an instant is the one JavaScript's calendar gives (localDay), every hour of ranges with
// daylight-saving transitions and minute by minute around them, in zones on and off the hour.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOfNumber, localDay, offsetSpans } from '../../src/engine/calendar.js';
import { localDayNumber } from '../../src/db/local-days.js';
import { configurations, freshDatabase } from '../helpers/app.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;

describe.each(configurations)('localDayNumber in SQL (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
  });
  afterAll(async () => fresh.drop());

  it.each([
    ['America/New_York', '2026-03-01T00:00:00Z', '2026-03-15T00:00:00Z'],
    ['America/Los_Angeles', '2026-10-28T00:00:00Z', '2026-11-04T00:00:00Z'],
    ['Australia/Lord_Howe', '2026-03-30T00:00:00Z', '2026-04-08T00:00:00Z'],
    ['Asia/Kolkata', '2026-06-01T00:00:00Z', '2026-06-05T00:00:00Z'],
    ['America/Santiago', '2026-09-03T00:00:00Z', '2026-09-09T00:00:00Z'],
  ])('%s from %s', async (zone, from, to) => {
    const start = Date.parse(from);
    const end = Date.parse(to);
    const spans = offsetSpans(start, end, zone);
    const instants: number[] = [];
    for (let instant = start; instant < end; instant += HOUR) instants.push(instant);
    for (const span of spans.slice(1))
      for (let instant = span.start - 2 * HOUR; instant < span.start + 2 * HOUR; instant += MINUTE) instants.push(instant, instant - 1);
    const values = sql.join(instants.map((instant) => sql`(cast(${instant} as bigint))`));
    const rows = await sql<{
      instant: number;
      day: number;
    }>`select column1 as instant, ${localDayNumber('column1', spans)} as day from (values ${values}) as t`.execute(fresh.database.db);
    expect(rows.rows).toHaveLength(instants.length);
    const mismatches = rows.rows.filter((row) => dayOfNumber(Number(row.day)) !== localDay(Number(row.instant), zone));
    expect(mismatches).toEqual([]);
  });
});
