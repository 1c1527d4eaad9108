// Custom levels (levelType custom, SPEC §4): an admin sets a user's level; the change is recorded
// and emitted like a level change earned with points.
import type { Database } from '../../db/index.js';
import { AppError } from '../../errors.js';
import { changeLevel, type PresentedLevelChange } from '../ledger/level-changes.js';
import type { LedgerRepository } from '../ledger/repository.js';
import type { ProgramService } from '../program/service.js';

export class CustomLevelsService {
  constructor(
    private readonly database: Pick<Database, 'transaction'>,
    private readonly ledger: LedgerRepository,
    private readonly programs: ProgramService,
    private readonly clock: () => number,
  ) {}

  async set(siteId: string, userId: string, levelId: string): Promise<PresentedLevelChange | null> {
    const snapshot = await this.programs.snapshot(siteId);
    const { program } = snapshot;
    if (program.site.levelType !== 'custom') {
      throw new AppError('validation_failed', 'The site\u2019s levels follow points', {
        errors: [{ path: 'levelId', message: 'levels are set by admins only when the site has levelType custom' }],
      });
    }
    const index = program.levels.findIndex((level) => level.id === levelId);
    const to = program.levels[index];
    if (to === undefined) throw new AppError('validation_failed', 'The level is invalid', { errors: [{ path: 'levelId', message: `no level "${levelId}"` }] });
    const party = { siteId, type: 'user' as const, id: userId };
    const now = this.clock();
    const { answer } = await this.database.transaction((trx) =>
      this.ledger.write(trx, { parties: [party], now, destinations: snapshot.destinations }, async (locked) => {
        const { level_id: currentId } = locked.row(party);
        if (currentId === levelId) return { writes: locked.writes, answer: null };
        const fromIndex = program.levels.findIndex((level) => level.id === currentId);
        const from = program.levels[fromIndex] ?? null;
        return {
          writes: locked.writes,
          answer: changeLevel(locked.writes, party, { from, to, direction: index > fromIndex ? 'up' : 'down' }, { adminChange: true }, now, now),
        };
      }),
    );
    return answer;
  }
}
