// Reads and writes of user_profiles (preferences, role, the name searched) and of the users a site
// knows: whoever has logged an action, has a profile, or is a member of a group.
import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { precompiled } from '../../db/precompiled.js';

/** A profile as stored: the preferences as JSON, and the role. */
export interface ProfileRow {
  preferences: string;
  role: string | null;
}

/** Which known users a search finds (see UserDirectory, ./directory.ts). */
export interface KnownUsersQuery {
  siteId: string;
  groups: readonly string[];
  exclude: string | undefined;
  /** Lowercased and trimmed; undefined or empty: everyone. */
  q: string | undefined;
  match: 'anywhere' | 'prefix';
  limit: number;
  offset: number;
}

/** Names for a leaderboard page or a standing: read for every user missing from the cache (a 1,000,000-user board misses often), and for a window loading into Redis. */
const selectNames = precompiled<{ siteId: string; userIds: string[] }, { user_id: string; preferences: string }>((db, p) =>
  db.selectFrom('user_profiles').select(['user_id', 'preferences']).where('site_id', '=', p.siteId).where('user_id', 'in', p.userIds),
);

/** LIKE's wildcards and its escape character, escaped. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export class UsersRepository {
  constructor(private readonly db: Db) {}

  /** The stored preferences of the users that have a profile. */
  async preferencesOf(siteId: string, userIds: readonly string[]): Promise<Array<{ user_id: string; preferences: string }>> {
    const rows: Array<{ user_id: string; preferences: string }> = [];
    // In chunks: SQLite bounds the parameters of one statement.
    for (let i = 0; i < userIds.length; i += 500) rows.push(...(await selectNames({ db: this.db }, { siteId, userIds: userIds.slice(i, i + 500) })));
    return rows;
  }

  profile(siteId: string, userId: string): Promise<ProfileRow | undefined> {
    return this.db.selectFrom('user_profiles').select(['preferences', 'role']).where('site_id', '=', siteId).where('user_id', '=', userId).executeTakeFirst();
  }

  /**
   * Changes the user's preferences in one transaction: the row is locked before it is read, so
   * that concurrent writes merge instead of overwriting each other (an UPDATE takes the row lock on
   * PostgreSQL; SQLite's transaction already holds the write lock). `change` gets the profile as
   * stored (none: a new one) and returns what to store and what to answer; when it throws, nothing
   * is written.
   */
  async changeProfile<T>(
    siteId: string,
    userId: string,
    now: number,
    change: (stored: ProfileRow | undefined) => { preferences: string; searchName: string | null; answer: T },
  ): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('user_profiles')
        .values({ site_id: siteId, user_id: userId, preferences: '{}', role: null, updated_at: now, search_name: null })
        .onConflict((oc) => oc.columns(['site_id', 'user_id']).doNothing())
        .execute();
      await trx.updateTable('user_profiles').set({ updated_at: now }).where('site_id', '=', siteId).where('user_id', '=', userId).execute();
      const row = await trx
        .selectFrom('user_profiles')
        .select(['preferences', 'role'])
        .where('site_id', '=', siteId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      const { preferences, searchName, answer } = change(row);
      await trx
        .updateTable('user_profiles')
        .set({ preferences, search_name: searchName, updated_at: now })
        .where('site_id', '=', siteId)
        .where('user_id', '=', userId)
        .execute();
      return answer;
    });
  }

  async setRole(siteId: string, userId: string, role: string | null, now: number): Promise<void> {
    await this.db
      .insertInto('user_profiles')
      .values({ site_id: siteId, user_id: userId, preferences: '{}', role, updated_at: now, search_name: null })
      .onConflict((oc) => oc.columns(['site_id', 'user_id']).doUpdateSet({ role, updated_at: now }))
      .execute();
  }

  /** The users the site knows, or (with groups) the members of those groups. */
  private known(siteId: string, groups: readonly string[]) {
    if (groups.length > 0) {
      return this.db
        .selectFrom('group_members')
        .select('user_id')
        .where('site_id', '=', siteId)
        .where('group_id', 'in', [...groups])
        .distinct();
    }
    return this.db
      .selectFrom('parties')
      .select('party_id as user_id')
      .where('site_id', '=', siteId)
      .where('party_type', '=', 'user')
      .union(this.db.selectFrom('user_profiles').select('user_id').where('site_id', '=', siteId))
      .union(this.db.selectFrom('group_members').select('user_id').where('site_id', '=', siteId));
  }

  /** Which of the given users the site knows (as members of the groups, when given). */
  async knownAmong(siteId: string, groups: readonly string[], userIds: readonly string[]): Promise<string[]> {
    const rows = await this.db
      .selectFrom(this.known(siteId, groups).as('u'))
      .select('u.user_id')
      .where('u.user_id', 'in', [...userIds])
      .execute();
    return rows.map((row) => row.user_id);
  }

  /**
   * Known users matching the query (ignoring case, the user id's start or the search name:
   * anywhere in it, or at the start of a word), named ones first in name order, then by id; and how
   * many match.
   */
  async searchKnown(query: KnownUsersQuery): Promise<{ rows: Array<{ user_id: string; preferences: string | null }>; total: number }> {
    const { siteId, q } = query;
    let base = this.db
      .selectFrom(this.known(siteId, query.groups).as('u'))
      .leftJoin('user_profiles as p', (join) => join.onRef('p.user_id', '=', 'u.user_id').on('p.site_id', '=', siteId));
    if (query.exclude !== undefined) base = base.where('u.user_id', '<>', query.exclude);
    if (q !== undefined && q !== '') {
      const text = likeLiteral(q);
      const like = (pattern: string) => sql<boolean>`${pattern} escape '\\'`;
      base = base.where((eb) =>
        eb.or([
          eb(sql`lower(u.user_id)`, 'like', like(`${text}%`)),
          ...(query.match === 'anywhere'
            ? [eb(sql`p.search_name`, 'like', like(`%${text}%`))]
            : [eb(sql`p.search_name`, 'like', like(`${text}%`)), eb(sql`p.search_name`, 'like', like(`% ${text}%`))]),
        ]),
      );
    }
    const [rows, count] = await Promise.all([
      base
        .select(['u.user_id', 'p.preferences'])
        .orderBy(sql`case when p.search_name is null then 1 else 0 end`)
        .orderBy('p.search_name')
        .orderBy('u.user_id')
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  }
}
