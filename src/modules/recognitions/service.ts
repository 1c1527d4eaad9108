// Recognitions (SPEC §9): a user gives points from a budget to colleagues through an exchange.
// Every rule is checked before anything is written; then one transaction, with the giver, the
// recipients and the groups their actions involve locked, charges the budget (checked again under
// the lock, so concurrent gifts never overspend it), credits each recipient in full through the
// points ledger (caps do not apply to gifts; levels and boards follow), logs RECOGNITION_RECEIVED
// and RECOGNITION_GIVEN through the engine so that missions can reward giving and receiving, and
// writes a `recognition.given` outbox event.
import { uuidv7 } from '../../uuid.js';
import { calendarWindow, withinDates } from '../../engine/calendar.js';
import type { Database } from '../../db/index.js';
import type { RecognitionsTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { counted } from '../../plural.js';
import type { PresentedLevelChange } from '../ledger/level-changes.js';
import type { LedgerRepository } from '../ledger/repository.js';
import type { PartyKey } from '../ledger/write-set.js';
import { visibleTo, type ActionOutcome, type ActionService, type Involved, type WithinTransaction } from '../actions/service.js';
import type { PointsService } from '../points/service.js';
import type { ProgramDocument } from '../program/model.js';
import type { PreferencesService } from '../users/preferences.js';
import type { ProgramService } from '../program/service.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import { parseRecognitionInput } from './input.js';
import type { Person, UserDirectory } from '../users/directory.js';
import type { InteractionType, RecognitionRepository } from './repository.js';

type Exchange = ProgramDocument['exchanges'][number];
type RecognitionInput = ReturnType<typeof parseRecognitionInput>;
type Recipient = RecognitionInput['recipients'][number] & { party: PartyKey; involved: Involved };

/** What every recipient's credit and action of one gift share. */
interface Gift {
  recognitionId: string;
  giverId: string;
  pointCategory: string;
  metadata: Record<string, string>;
}

export interface PresentedExchange extends Exchange {
  timezone: string;
  /** Whether the exchange is open now (its dates, in its time zone). */
  active: boolean;
  /** Whether this user may give in it now: open, and a giver. */
  canGive: boolean;
}

export interface Budget {
  /** Points the giver may give per period. */
  amount: number;
  used: number;
  remaining: number;
  period: Exchange['budget']['period'];
  /** When the period ends and the budget is whole again; null for a budget that never resets. */
  resetsAt: string | null;
}

export interface Interaction {
  id: string;
  type: 'given' | 'received';
  exchangeId: string;
  category: { id: string; name: string };
  comment: string;
  giver: Person;
  recipients: Array<Person & { points: number }>;
  /** The total given. */
  points: number;
  /** What this user received (received interactions only). */
  pointsReceived?: number;
  givenAt: string;
}

export interface GivenRecognition {
  id: string;
  exchangeId: string;
  category: { id: string; name: string };
  comment: string;
  giver: { userId: string };
  recipients: Array<{ userId: string; points: number; levelChanged?: PresentedLevelChange }>;
  points: number;
  givenAt: string;
  /** The giver's budget after this gift. */
  budget: Budget;
  /** Missions the giver completed by giving. */
  missionsCompleted: Array<{ id: string; name: string; completionId: string }>;
  /** Badges the giver earned by giving (the recipients' go to their own trophy cases, unannounced here). */
  badgesEarned: ActionOutcome['badgesEarned'];
}

export class RecognitionService {
  constructor(
    private readonly database: Pick<Database, 'db'>,
    private readonly repository: RecognitionRepository,
    private readonly users: UserDirectory,
    private readonly ledger: LedgerRepository,
    private readonly actions: ActionService,
    private readonly points: PointsService,
    private readonly programs: ProgramService,
    private readonly preferences: PreferencesService,
    private readonly clock: () => number,
  ) {}

  /** GET /users/{u}/exchanges: the exchanges the user may give in now. */
  async exchanges(siteId: string, userId: string): Promise<PresentedExchange[]> {
    const { program } = await this.programs.snapshot(siteId);
    const groups = await this.membershipsFor(siteId, userId, program.exchanges);
    const now = this.clock();
    return program.exchanges.map((exchange) => this.present(program, exchange, groups, now)).filter((exchange) => exchange.canGive);
  }

  /** GET /users/{u}/exchanges/{x}: any exchange of the site, with whether the user may give in it. */
  async exchange(siteId: string, userId: string, exchangeId: string): Promise<PresentedExchange> {
    const { program } = await this.programs.snapshot(siteId);
    const exchange = findExchange(program, exchangeId);
    return this.present(program, exchange, await this.membershipsFor(siteId, userId, [exchange]), this.clock());
  }

  async categories(siteId: string, exchangeId: string): Promise<Exchange['categories']> {
    const { program } = await this.programs.snapshot(siteId);
    return findExchange(program, exchangeId).categories;
  }

  /** GET /users/{u}/exchanges/{x}/points: the giver's budget in the current period. */
  async budget(siteId: string, userId: string, exchangeId: string): Promise<Budget> {
    const { program } = await this.programs.snapshot(siteId);
    const exchange = findExchange(program, exchangeId);
    const window = budgetWindow(exchange, zoneOf(program, exchange), this.clock());
    const used = await this.repository.budgetUsed({ db: this.database.db }, siteId, exchange.id, userId, window.start);
    return presentBudget(exchange, window, used);
  }

  /** GET /users/{u}/exchanges/{x}/recipients: who the user may recognize there, by name. */
  async recipients(
    siteId: string,
    userId: string,
    exchangeId: string,
    q: string | undefined,
    paging: { limit: number; offset: number },
  ): Promise<{ items: Person[]; total: number }> {
    const { program } = await this.programs.snapshot(siteId);
    const exchange = findExchange(program, exchangeId);
    const { people, total } = await this.users.search({ siteId, groups: exchange.recipients.groups, exclude: userId, q, match: 'anywhere', ...paging });
    return { items: people, total };
  }

  /** POST /users/{u}/interactions-collection: every rule checked, then the gift written in one transaction. */
  async give(siteId: string, giverId: string, body: unknown): Promise<GivenRecognition> {
    const input = parseRecognitionInput(body);
    const snapshot = await this.programs.snapshot(siteId);
    const now = this.clock();
    const { exchange, category, zone } = await this.checkGift(snapshot.program, siteId, giverId, input, now);
    const total = input.recipients.reduce((sum, r) => sum + r.points, 0);
    const window = budgetWindow(exchange, zone, now);
    checkBudget(exchange, await this.repository.budgetUsed({ db: this.database.db }, siteId, exchange.id, giverId, window.start), total);

    const { giver, giverInvolved, recipients, parties } = await this.#partiesOf(snapshot, giverId, input.recipients);
    const { gift, row, event } = giftRecords(
      { siteId, giverId, comment: input.comment, exchange, category, budgetWindow: window.start, total, now },
      recipients,
    );

    return this.actions.transaction(snapshot, now, async (within) => {
      await this.ledger.lock(within.trx, parties, now);
      const used = await this.repository.budgetUsed(within.trx, siteId, exchange.id, giverId, window.start);
      checkBudget(exchange, used, total);
      await this.repository.charge(within.trx, siteId, exchange.id, giverId, window.start, total);
      await this.repository.insert(
        within.trx,
        row,
        recipients.map((r) => ({ site_id: siteId, recognition_id: gift.recognitionId, recipient_id: r.userId, points: r.points, given_at: now })),
      );
      const credited: GivenRecognition['recipients'] = [];
      for (const [i, r] of recipients.entries()) credited.push(await this.receive(within, r, i, gift));
      const given = {
        action: 'RECOGNITION_GIVEN',
        value: total,
        metadata: { ...gift.metadata, recipients: String(recipients.length) },
        eventId: undefined,
        timestamp: now,
      };
      const giverOutcome = await this.actions.logWithin(within, giver, giverInvolved, given, `${gift.recognitionId}.given`);
      await this.actions.writeWithin(within, [giver], async (locked) => {
        locked.writes.enqueue(giver, event, now);
        return { writes: locked.writes, answer: undefined };
      });
      return {
        id: gift.recognitionId,
        exchangeId: exchange.id,
        category: { id: category.id, name: category.name },
        comment: input.comment,
        giver: { userId: giverId },
        recipients: credited,
        points: total,
        givenAt: new Date(now).toISOString(),
        budget: presentBudget(exchange, window, used + total),
        missionsCompleted: visibleTo(giverOutcome, true).missionsCompleted,
        badgesEarned: giverOutcome.badgesEarned,
      } satisfies GivenRecognition;
    });
  }

  /** The parties a gift's transaction touches, and the groups each one's action involves. */
  async #partiesOf(
    snapshot: ProgramSnapshot,
    giverId: string,
    given: RecognitionInput['recipients'],
  ): Promise<{ giver: PartyKey; giverInvolved: Involved; recipients: Recipient[]; parties: PartyKey[] }> {
    const giver: PartyKey = { siteId: snapshot.siteId, type: 'user', id: giverId };
    const giverInvolved = await this.actions.groupsOf(snapshot, giver, 'RECOGNITION_GIVEN');
    const recipients: Recipient[] = [];
    for (const r of given) {
      const party: PartyKey = { siteId: snapshot.siteId, type: 'user', id: r.userId };
      recipients.push({ ...r, party, involved: await this.actions.groupsOf(snapshot, party, 'RECOGNITION_RECEIVED') });
    }
    const parties = [giver, ...giverInvolved.groups, ...recipients.flatMap((r) => [r.party, ...r.involved.groups])];
    return { giver, giverInvolved, recipients, parties };
  }

  /** The exchange and category of a gift, once every rule but the budget holds for it. */
  private async checkGift(
    program: ProgramDocument,
    siteId: string,
    giverId: string,
    input: RecognitionInput,
    now: number,
  ): Promise<{ exchange: Exchange; category: Exchange['categories'][number]; zone: string }> {
    const exchange = program.exchanges.find((x) => x.id === input.exchangeId);
    if (exchange === undefined) throw new AppError('unknown_exchange', `The site has no exchange "${input.exchangeId}"`);
    const category = exchange.categories.find((c) => c.id === input.categoryId);
    if (category === undefined) throw new AppError('unknown_category', `Exchange "${exchange.id}" has no category "${input.categoryId}"`);
    const zone = zoneOf(program, exchange);
    if (!withinDates(exchange, zone, now)) throw new AppError('exchange_closed', `Exchange "${exchange.id}" is not open now`);
    if (!isGiver(exchange, await this.membershipsFor(siteId, giverId, [exchange])))
      throw new AppError('giver_not_eligible', `User "${giverId}" may not give in exchange "${exchange.id}"`);
    if (input.recipients.some((r) => r.userId === giverId)) throw new AppError('self_recognition', 'A user cannot recognize themselves');
    if (input.recipients.length > exchange.maxRecipients) {
      throw new AppError(
        'too_many_recipients',
        `Exchange "${exchange.id}" allows at most ${counted(exchange.maxRecipients, 'recipient')} per recognition (got ${input.recipients.length})`,
      );
    }
    const outOfRange = input.recipients.filter((r) => r.points < exchange.minPoints || (exchange.maxPoints !== undefined && r.points > exchange.maxPoints));
    if (outOfRange.length > 0) {
      const range = exchange.maxPoints === undefined ? `at least ${exchange.minPoints}` : `${exchange.minPoints} to ${exchange.maxPoints}`;
      const points = (exchange.maxPoints ?? exchange.minPoints) === 1 ? 'point' : 'points';
      throw new AppError('points_out_of_range', `Each recipient gets ${range} ${points} in exchange "${exchange.id}"`, {
        errors: outOfRange.map((r) => ({ path: `recipients.${r.userId}`, message: `${r.points} is outside ${range}` })),
      });
    }
    const eligible = await this.users.among(
      siteId,
      exchange.recipients.groups,
      input.recipients.map((r) => r.userId),
    );
    const ineligible = input.recipients.filter((r) => !eligible.has(r.userId));
    if (ineligible.length > 0) {
      throw new AppError(
        'recipient_not_eligible',
        `${ineligible.length === 1 ? 'A recipient is' : 'Recipients are'} not eligible in exchange "${exchange.id}"`,
        {
          errors: ineligible.map((r) => ({ path: `recipients.${r.userId}`, message: 'is not a user who may receive in this exchange' })),
        },
      );
    }
    return { exchange, category, zone };
  }

  /** Credits a recipient the gift (a decision), then logs RECOGNITION_RECEIVED from what that left (another). */
  private async receive(within: WithinTransaction, r: Recipient, i: number, gift: Gift): Promise<GivenRecognition['recipients'][number]> {
    const posting = {
      category: gift.pointCategory,
      amount: r.points,
      cause: 'recognition' as const,
      causeId: gift.recognitionId,
      reason: null,
      levelCause: () => ({ recognitionId: gift.recognitionId }),
    };
    const posted = await this.actions.writeWithin(within, [r.party], async (locked) => ({
      writes: locked.writes,
      answer: await this.points.post(locked, within.snapshot, r.party, new Set(r.involved.groupIds), posting),
    }));
    const entry: GivenRecognition['recipients'][number] = {
      userId: r.userId,
      points: r.points,
      ...(posted.levelChanged !== undefined ? { levelChanged: posted.levelChanged } : {}),
    };
    // Receiving is not something the recipient did: it does not count them as active today.
    const received = {
      action: 'RECOGNITION_RECEIVED',
      value: r.points,
      metadata: { ...gift.metadata, giver_id: gift.giverId },
      eventId: undefined,
      timestamp: within.now,
    };
    const outcome = await this.actions.logWithin(within, r.party, r.involved, received, `${gift.recognitionId}.received.${i + 1}`, { passive: true });
    // A mission completed by receiving can move the level further than the gift did: the response shows the whole move.
    if (outcome.levelChanged !== undefined) entry.levelChanged = { ...outcome.levelChanged, from: entry.levelChanged?.from ?? outcome.levelChanged.from };
    return entry;
  }

  /** GET /users/{u}/interactions-collection: recognitions given, received, or both, newest first. */
  async interactions(
    siteId: string,
    userId: string,
    type: InteractionType,
    paging: { limit: number; offset: number },
  ): Promise<{ items: Interaction[]; total: number }> {
    const { program } = await this.programs.snapshot(siteId);
    const { rows, total } = await this.repository.interactions(siteId, userId, type, paging.limit, paging.offset);
    const recipientRows = await this.repository.recipientsOf(
      siteId,
      rows.map((row) => row.recognition_id),
    );
    const people = [...new Set([...rows.map((row) => row.giver_id), ...recipientRows.map((row) => row.recipient_id)])];
    const names = await this.preferences.names(siteId, people);
    const person = (id: string): Person => {
      const name = names.get(id);
      return { userId: id, firstName: name?.firstName ?? null, lastName: name?.lastName ?? null, iconUrl: name?.iconUrl ?? null };
    };
    const byRecognition = new Map<string, Array<Person & { points: number }>>();
    for (const row of recipientRows) {
      const list = byRecognition.get(row.recognition_id) ?? [];
      list.push({ ...person(row.recipient_id), points: Number(row.points) });
      byRecognition.set(row.recognition_id, list);
    }
    const items = rows.map((row): Interaction => {
      const recipients = byRecognition.get(row.recognition_id) ?? [];
      const received = row.giver_id !== userId;
      // A category since removed from the program still shows its id.
      const categoryName = program.exchanges.find((x) => x.id === row.exchange_id)?.categories.find((c) => c.id === row.category_id)?.name ?? row.category_id;
      return {
        id: row.recognition_id,
        type: received ? 'received' : 'given',
        exchangeId: row.exchange_id,
        category: { id: row.category_id, name: categoryName },
        comment: row.comment,
        giver: person(row.giver_id),
        recipients,
        points: Number(row.points),
        ...(received ? { pointsReceived: recipients.find((r) => r.userId === userId)?.points ?? 0 } : {}),
        givenAt: new Date(Number(row.given_at)).toISOString(),
      };
    });
    return { items, total };
  }

  private async membershipsFor(siteId: string, userId: string, exchanges: readonly Exchange[]): Promise<Set<string>> {
    // Only exchanges limited to some givers need the user's groups.
    if (!exchanges.some((exchange) => exchange.givers.groups.length > 0)) return new Set();
    return new Set(await this.actions.memberships(siteId, userId));
  }

  private present(program: ProgramDocument, exchange: Exchange, groups: ReadonlySet<string>, now: number): PresentedExchange {
    const timezone = zoneOf(program, exchange);
    const active = withinDates(exchange, timezone, now);
    return { ...exchange, timezone, active, canGive: active && isGiver(exchange, groups) };
  }
}

function findExchange(program: ProgramDocument, exchangeId: string): Exchange {
  const exchange = program.exchanges.find((x) => x.id === exchangeId);
  if (exchange === undefined) throw new AppError('not_found', `The site has no exchange "${exchangeId}"`);
  return exchange;
}

/** Whether a user in these groups may give in the exchange (no giver groups: everyone may). */
function isGiver(exchange: Exchange, groups: ReadonlySet<string>): boolean {
  return exchange.givers.groups.length === 0 || exchange.givers.groups.some((group) => groups.has(group));
}

/** The exchange's time zone: its own, or the site's (SPEC §9). */
function zoneOf(program: ProgramDocument, exchange: Exchange): string {
  return exchange.timezone ?? program.site.timezone;
}

/** The budget period holding `now`: a calendar window in the exchange's time zone; all time for `none`. */
function budgetWindow(exchange: Exchange, timezone: string, now: number): { start: number; end: number | null } {
  if (exchange.budget.period === 'none') return { start: 0, end: null };
  return calendarWindow(now, exchange.budget.period, timezone);
}

/** Refuses a gift of `total` points when the giver has used `used` of the exchange's budget and too little is left. */
function checkBudget(exchange: Exchange, used: number, total: number): void {
  if (used + total > exchange.budget.amount) {
    throw new AppError(
      'budget_exceeded',
      `The recognition needs ${counted(total, 'point')}; ${Math.max(0, exchange.budget.amount - used)} of the budget remain`,
    );
  }
}

/** What one gift writes: what its credits share, its recognition row and the recognition.given event. */
function giftRecords(
  gift: {
    siteId: string;
    giverId: string;
    comment: RecognitionInput['comment'];
    exchange: Exchange;
    category: Exchange['categories'][number];
    budgetWindow: number;
    total: number;
    now: number;
  },
  recipients: readonly Recipient[],
): { gift: Gift; row: RecognitionsTable; event: { type: string; occurredAt: number; data: Record<string, unknown> } } {
  const { siteId, giverId, comment, exchange, category, total, now } = gift;
  const recognitionId = `rec_${uuidv7()}`;
  const row: RecognitionsTable = {
    site_id: siteId,
    recognition_id: recognitionId,
    exchange_id: exchange.id,
    category_id: category.id,
    giver_id: giverId,
    comment,
    points: total,
    budget_window: gift.budgetWindow,
    given_at: now,
  };
  const recognition = {
    id: recognitionId,
    exchangeId: exchange.id,
    category: { id: category.id, name: category.name },
    comment,
    points: total,
    pointCategory: exchange.pointCategory,
  };
  return {
    gift: {
      recognitionId,
      giverId,
      pointCategory: exchange.pointCategory,
      metadata: { exchange_id: exchange.id, category_id: category.id, recognition_id: recognitionId },
    },
    row,
    event: {
      type: 'recognition.given',
      occurredAt: now,
      data: { recognition, recipients: recipients.map((r) => ({ userId: r.userId, points: r.points })), timestamp: new Date(now).toISOString() },
    },
  };
}

function presentBudget(exchange: Exchange, window: { end: number | null }, used: number): Budget {
  return {
    amount: exchange.budget.amount,
    used,
    remaining: Math.max(0, exchange.budget.amount - used),
    period: exchange.budget.period,
    resetsAt: window.end === null ? null : new Date(window.end).toISOString(),
  };
}
