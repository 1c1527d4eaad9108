// Group membership as stored: who is in which group of a site.
import type { Db } from '../../db/index.js';

export interface Membership {
  groupId: string;
  userId: string;
  joinedAt: number;
}

export class GroupMembersRepository {
  constructor(private readonly db: Db) {}

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
