// Calendar days of a time zone in SQL, on both dialects: a column of instants (ms) as the number of
// its local day (days since 1970-01-01 of the local calendar), so that rows are grouped by the
// site's days in the database instead of being read one by one. Neither SQLite nor the query layer
// knows time zones: the zone's offsets over the range come from JavaScript (offsetSpans in
// src/engine/calendar.ts), one per stretch between daylight-saving transitions, and the day is
// (instant + offset) / 86400000, integer division, the offset chosen by a CASE on the instant.
// Instants must not be negative (integer division truncates), which a range of recent days ensures.
import { sql, type RawBuilder } from 'kysely';
import type { OffsetSpan } from '../engine/calendar.js';

/** The local day number of the instants in `column` (a bigint column), for instants at or after the first span's start. */
export function localDayNumber(column: string, spans: readonly OffsetSpan[]): RawBuilder<number> {
  if (spans.length === 0) throw new Error('localDayNumber needs the offsets of the range');
  const ref = sql.ref(column);
  // Parameters are cast: SQLite binds JavaScript numbers as REAL, and a REAL sum divides without truncating.
  const offset = (span: OffsetSpan) => sql`cast(${span.offset} as bigint)`;
  const [first, ...rest] = spans as [OffsetSpan, ...OffsetSpan[]];
  if (rest.length === 0) return sql<number>`((${ref} + ${offset(first)}) / 86400000)`;
  // The latest span the instant reaches: the CASE tests the later starts first.
  const branches = [...rest].reverse().map((span) => sql`when ${ref} >= cast(${span.start} as bigint) then ${offset(span)}`);
  return sql<number>`((${ref} + case ${sql.join(branches, sql` `)} else ${offset(first)} end) / 86400000)`;
}
