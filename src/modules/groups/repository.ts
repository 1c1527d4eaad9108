// Group membership as stored: who is in which group of a site.
import type { Db, Trx } from '../../db/index.js';
import { precompiled } from '../../db/precompiled.js';

export interface Membership {
  groupId: string;
  userId: string;
  joinedAt: number;
}

// Read by every action that involves groups: precompiled (src/db/precompiled.ts).
const userGroups = precompiled<{ siteId: string; userId: string }, { group_id: string }>((db, p) =>
  db.selectFrom('group_members').select('group_id').where('site_id', '=', p.siteId).where('user_id', '=', p.userId),
);

export class GroupMembersRepository {
  constructor(private readonly db: Db) {}

  /** The ids of the user's groups, in no order; in `trx` when given. */
  async groupsOf(siteId: string, userId: string, trx: Trx = { db: this.db }): Promise<string[]> {
    return (await userGroups(trx, { siteId, userId })).map((row) => row.group_id);
  }

  /** Adds the membership unless it exists; true when it was added. */
  async add(siteId: string, groupId: string, userId: string, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('group_members')
      .values({ site_id: siteId, group_id: groupId, user_id: userId, joined_at: now })
      .onConflict((oc) => oc.columns(['site_id', 'group_id', 'user_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async find(siteId: string, groupId: string, userId: string): Promise<Membership | undefined> {
    const row = await this.db
      .selectFrom('group_members')
      .select(['group_id', 'user_id', 'joined_at'])
      .where('site_id', '=', siteId)
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && { groupId: row.group_id, userId: row.user_id, joinedAt: row.joined_at };
  }

  async remove(siteId: string, groupId: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('group_members')
      .where('site_id', '=', siteId)
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async list(siteId: string, groupId: string, limit: number, offset: number): Promise<{ total: number; members: Membership[] }> {
    const where = this.db.selectFrom('group_members').where('site_id', '=', siteId).where('group_id', '=', groupId);
    const [count, rows] = await Promise.all([
      where.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      where.select(['group_id', 'user_id', 'joined_at']).orderBy('user_id').limit(limit).offset(offset).execute(),
    ]);
    return { total: Number(count.n), members: rows.map((row) => ({ groupId: row.group_id, userId: row.user_id, joinedAt: row.joined_at })) };
  }
}
