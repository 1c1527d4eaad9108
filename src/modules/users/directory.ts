// The users a site knows: whoever has logged an action, has a profile, or is a member of a group.
// Questline keeps no user list of its own (the site's app is the directory); this is what it has
// seen. Recognitions pick recipients from it and the deprecated search finds users in it.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';

export interface Person {
  userId: string;
  firstName: string | null;
  lastName: string | null;
  iconUrl: string | null;
}

export interface PeopleQuery {
  siteId: string;
  /** Only members of these groups; empty: every known user. */
  groups?: readonly string[];
  /** A user left out (a giver is never their own recipient). */
  exclude?: string;
  /**
   * Matched ignoring case against the user id's start and the name ("first last"): anywhere in
   * it (`anywhere`), or at the start of a word (`prefix`).
   */
  q?: string | undefined;
  match: 'anywhere' | 'prefix';
  limit: number;
  offset: number;
}

/** LIKE's wildcards and its escape character, escaped. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export class UserDirectory {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

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
  async among(siteId: string, groups: readonly string[], userIds: readonly string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom(this.known(siteId, groups).as('u'))
      .select('u.user_id')
      .where('u.user_id', 'in', [...userIds])
      .execute();
    return new Set(rows.map((row) => row.user_id));
  }

  /** Known users matching the query, named ones first in name order, then by id; and how many match. */
  async search(query: PeopleQuery): Promise<{ people: Person[]; total: number }> {
    const { siteId } = query;
    let base = this.db
      .selectFrom(this.known(siteId, query.groups ?? []).as('u'))
      .leftJoin('user_profiles as p', (join) => join.onRef('p.user_id', '=', 'u.user_id').on('p.site_id', '=', siteId));
    if (query.exclude !== undefined) base = base.where('u.user_id', '<>', query.exclude);
    const q = query.q?.trim().toLowerCase();
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
    const people = rows.map((row) => {
      const stored = row.preferences === null ? {} : (JSON.parse(row.preferences) as Record<string, string | undefined>);
      return {
        userId: row.user_id,
        firstName: stored.firstName ?? null,
        lastName: stored.lastName ?? null,
        iconUrl: stored.iconUrl ?? stored.userPhotoUrl ?? null,
      };
    });
    return { people, total: Number(count?.n ?? 0) };
  }
}
