// Group membership as the other modules read it: a user's groups (group prerequisites, group
// missions, group-filtered and group boards). The admin routes manage memberships (./routes.ts).
import type { Trx } from '../../db/index.js';
import type { GroupMembersRepository } from './repository.js';

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class GroupService {
  constructor(private readonly repository: GroupMembersRepository) {}

  /**
   * The ids of the user's groups, in code unit order (the same whichever the database and its
   * collation). `trx`: the transaction to read in (a writer's, its parties locked); otherwise none.
   */
  async ofUser(siteId: string, userId: string, trx?: Trx): Promise<string[]> {
    return (await this.repository.groupsOf(siteId, userId, trx)).sort(byCodeUnits);
  }
}
