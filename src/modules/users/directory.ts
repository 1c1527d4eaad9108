// The users a site knows: whoever has logged an action, has a profile, or is a member of a group.
// Questline keeps no user list of its own (the site's app is the directory); this is what it has
// seen. Recognitions pick recipients from it and the deprecated search finds users in it.
import type { Db } from '../../db/index.js';
import { nameOf } from './names.js';
import { UsersRepository } from './repository.js';

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

export class UserDirectory {
  readonly #repository: UsersRepository;

  constructor(db: Db) {
    this.#repository = new UsersRepository(db);
  }

  /** Which of the given users the site knows (as members of the groups, when given). */
  async among(siteId: string, groups: readonly string[], userIds: readonly string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    return new Set(await this.#repository.knownAmong(siteId, groups, userIds));
  }

  /** Known users matching the query, named ones first in name order, then by id; and how many match. */
  async search(query: PeopleQuery): Promise<{ people: Person[]; total: number }> {
    const { rows, total } = await this.#repository.searchKnown({
      siteId: query.siteId,
      groups: query.groups ?? [],
      exclude: query.exclude,
      q: query.q?.trim().toLowerCase(),
      match: query.match,
      limit: query.limit,
      offset: query.offset,
    });
    const people = rows.map((row) => ({
      userId: row.user_id,
      ...nameOf(row.preferences === null ? {} : (JSON.parse(row.preferences) as Record<string, string | undefined>)),
    }));
    return { people, total };
  }
}
