// Reading and changing a site's program. Every change validates the whole resulting program
// (./validate.ts) and is written in one transaction with the row locked, bumping its version and
// keeping the document it wrote in the site's history (who, when, what changed); the per-site
// cache is invalidated on this node at once and on the others through Redis, or by their version
// check. The snapshot also carries which event types the site's webhook endpoints subscribe to, so
// an endpoint change bumps the version too (and keeps no version: the document did not change).
import type { Db } from '../../db/index.js';
import { AppError, type FieldError } from '../../errors.js';
import type { InvalidationBus } from '../../infra/redis.js';
import { DEFAULT_TIMEZONE, type ProgramDocument } from './model.js';
import { rulesByMission, type ProgramRepository, type ProgramRow, type ProgramVersionRow, type RemovedRules } from './repository.js';
import { siteChanges, type SiteChange } from './site-changes.js';
import { buildSnapshot, type ProgramSnapshot } from './snapshot.js';
import { unwrapProgramEnvelope, validateProgram } from './validate.js';
import { subscribedTypes, type Subscription } from './event-routing.js';
import { replaceSecret, type SecretColumns } from './webhook-secret.js';
import { checkedTarget, RefusedTarget } from '../../http/targets.js';
import { programChanges, summarize, type EntityChange, type ProgramSummary } from './version-diff.js';
import { ProgramHistory } from './program-history.js';

const TOPIC = 'program';
/** How stale a cached program may get before a version check, with and without Redis invalidation. */
const CHECK_INTERVAL_WITH_BUS_MS = 30_000;
const CHECK_INTERVAL_WITHOUT_BUS_MS = 1_000;
export const SECRET_MASK = '****';

/** What a new site starts with: its name and time zone, and the one default point category. */
export function initialProgram(name: string, timezone: string = DEFAULT_TIMEZONE): ProgramDocument {
  return validateProgram({ site: { name, timezone }, pointCategories: [{ name: 'Points', isDefault: true }] });
}

/** `****` and the last 4 characters, or only `****` for a secret too short to show any of it. */
export function maskSecret(secret: string | null): string | undefined {
  if (secret === null || secret === '') return undefined;
  return secret.length >= 12 ? `${SECRET_MASK}${secret.slice(-4)}` : SECRET_MASK;
}

/**
 * Who changes a site's program: an admin client (its id; an AuthContext is one), the questline
 * command (CLI_EDITOR), or Questline itself (null: a site's initial program, the demo site's).
 */
export interface ProgramEditor {
  siteId: string;
  clientId: string | null;
}

/** Who the program history names for a change made with the questline command (client ids start with `qlc_`). */
export const CLI_EDITOR = 'cli';

export interface ProgramChange {
  version: number;
  program: ProgramDocument;
  /** Progress on rules the change removed, archived (SPEC §4: progress on kept rule ids stays). */
  progressArchived: { parties: number; rows: number };
  /** The site settings the change changed (a restore reports them). */
  siteChanges: SiteChange[];
}

/** What saving a proposed program would do, as the program stands now (ProgramService.preview). */
export interface ProgramPreview {
  /** The version the change would be (if nothing else changes the program first), and the current one. */
  version: number;
  currentVersion: number;
  summary: ProgramSummary;
  changes: EntityChange[];
  /** Missions with rules the change removes, whose progress on them would be archived (reset). */
  progressReset: {
    parties: number;
    rows: number;
    missions: Array<{ missionId: string; name: string; missionRemoved: boolean; ruleIds: string[]; parties: number; rows: number }>;
  };
  siteChanges: SiteChange[];
}

/** (mission, rule) pairs of `before` that `after` no longer has. */
function removedRules(before: ProgramDocument, after: ProgramDocument): RemovedRules {
  const kept = new Map(after.missions.map((mission) => [mission.id, new Set(mission.rules.map((rule) => rule.id))]));
  return before.missions.flatMap((mission) =>
    mission.rules.filter((rule) => !kept.get(mission.id)?.has(rule.id)).map((rule) => ({ missionId: mission.id, ruleId: rule.id })),
  );
}

export class ProgramService {
  readonly #cache = new Map<string, { snapshot: ProgramSnapshot; checkedAt: number }>();
  readonly #checkInterval: number;
  /** The site's kept versions (program history), for reading. */
  readonly history: ProgramHistory;

  constructor(
    private readonly db: Db,
    private readonly repository: ProgramRepository,
    private readonly options: {
      bus?: InvalidationBus | undefined;
      clock: () => number;
      onError: (error: unknown) => void;
      /** Whether the site's callback URLs may name loopback and private addresses (WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
      allowPrivateNetworks?: boolean;
    },
  ) {
    this.#checkInterval = options.bus ? CHECK_INTERVAL_WITH_BUS_MS : CHECK_INTERVAL_WITHOUT_BUS_MS;
    this.history = new ProgramHistory(repository, (siteId) => this.initialVersion(siteId));
  }

  async start(): Promise<void> {
    await this.options.bus?.subscribe(TOPIC, (siteId) => this.#cache.delete(siteId));
  }

  private now(): number {
    return this.options.clock();
  }

  /** The site's program for the engine and read endpoints, from the per-site cache. */
  async snapshot(siteId: string): Promise<ProgramSnapshot> {
    const cached = this.#cache.get(siteId);
    const now = this.now();
    if (cached !== undefined) {
      if (now - cached.checkedAt < this.#checkInterval) return cached.snapshot;
      if ((await this.repository.version(siteId)) === cached.snapshot.version) {
        cached.checkedAt = now;
        return cached.snapshot;
      }
    }
    const snapshot = await this.load(siteId);
    this.#cache.set(siteId, { snapshot, checkedAt: now });
    return snapshot;
  }

  private async load(siteId: string): Promise<ProgramSnapshot> {
    // The row before the endpoints: an endpoint change committed between the two reads gives the
    // older version with the newer endpoints, which the next version check replaces (read the
    // other way round, the older endpoints would be kept under the newer version).
    const { version, program } = await this.stored(siteId);
    const subscribed = subscribedTypes(await this.repository.endpointEventTypes(siteId));
    return buildSnapshot(siteId, version, program, subscribed);
  }

  /** The program as stored, or the initial one (version 0) of a site that has no program row yet. */
  private async stored(siteId: string): Promise<{ version: number; program: ProgramDocument }> {
    const row = await this.repository.find(siteId);
    if (row !== undefined) return { version: row.version, program: JSON.parse(row.document) as ProgramDocument };
    const site = await this.repository.siteIdentity(siteId);
    if (site === undefined) throw new AppError('not_found', `Site "${siteId}" does not exist`);
    return { version: 0, program: initialProgram(site.name, site.timezone) };
  }

  /** Every origin some site allows (site.allowedOrigins), as written: CORS preflights carry no token and are answered for all of them. */
  allowedOrigins(): Promise<string[]> {
    return this.repository.allowedOrigins();
  }

  /** The program as admins read it: the webhook secret shows only its last 4 characters. */
  async read(siteId: string): Promise<ProgramDocument> {
    const [snapshot, row] = await Promise.all([this.snapshot(siteId), this.repository.find(siteId)]);
    const masked = maskSecret(row?.webhook_secret ?? null);
    const program = structuredClone(snapshot.program);
    if (masked !== undefined) program.site.webhookSecret = masked;
    return program;
  }

  /**
   * Replaces the whole program (validated first; nothing changes on any error). `input` is a
   * program, or a read of one as GET /admin/program answers it (`{"response": program}`).
   */
  replace(editor: ProgramEditor, input: unknown): Promise<ProgramChange> {
    return this.change(editor, (current) => this.validated(unwrapProgramEnvelope(input), current));
  }

  /**
   * What replace() with `input` would do, saving nothing: the same validation (the same errors),
   * the version it would be, what it changes, whose progress it would archive, the site settings it
   * changes. Read without the lock: a change made meanwhile may make the real one differ.
   */
  async preview(siteId: string, input: unknown): Promise<ProgramPreview> {
    const { version, program: before } = await this.stored(siteId);
    const program = this.validated(unwrapProgramEnvelope(input), before);
    delete program.site.webhookSecret;
    const removed = removedRules(before, program);
    const counted = await this.repository.countProgress(siteId, removed);
    const changes = programChanges(before, program);
    const kept = new Set(program.missions.map((mission) => mission.id));
    const removedOf = rulesByMission(removed);
    const missions = before.missions.flatMap((mission) => {
      const ruleIds = removedOf.get(mission.id);
      if (ruleIds === undefined) return [];
      const progress = counted.missions.get(mission.id) ?? { parties: 0, rows: 0 };
      return [{ missionId: mission.id, name: mission.name, missionRemoved: !kept.has(mission.id), ruleIds, ...progress }];
    });
    return {
      version: version + 1,
      currentVersion: version,
      summary: summarize(changes),
      changes,
      progressReset: { parties: counted.parties, rows: counted.rows, missions },
      siteChanges: siteChanges(before.site, program.site),
    };
  }

  /** Makes a kept version's document the program again, through replace()'s validation; a new version is written. */
  async restoreVersion(editor: ProgramEditor, version: number): Promise<ProgramChange> {
    const { document } = await this.history.kept(editor.siteId, version);
    return this.change(editor, (current) => this.validated(JSON.parse(document), current), version);
  }

  /** Version 0 of a site whose program was never written (no program row, so none kept): its initial program. */
  private async initialVersion(siteId: string): Promise<ProgramVersionRow | undefined> {
    if ((await this.repository.find(siteId)) !== undefined) return undefined;
    const site = await this.repository.siteIdentity(siteId);
    if (site === undefined) return undefined;
    const document = JSON.stringify(initialProgram(site.name, site.timezone));
    return { site_id: siteId, version: 0, document, changed_by: null, changed_at: site.created_at, summary: null, restored_from: null };
  }

  /**
   * Applies `edit` to a copy of the current program, validates the result and saves it. `edit`
   * may throw AppError (not_found, conflict); `rootErrors` re-roots validation paths for the caller.
   */
  modify(editor: ProgramEditor, edit: (program: ProgramDocument) => void, rootErrors?: (errors: FieldError[]) => FieldError[]): Promise<ProgramChange> {
    return this.change(editor, (current) => {
      const draft = structuredClone(current);
      edit(draft);
      try {
        return this.validated(draft, current);
      } catch (error) {
        if (error instanceof AppError && rootErrors !== undefined && error.options.errors) {
          throw new AppError(error.code, error.message, { errors: rootErrors(error.options.errors) });
        }
        throw error;
      }
    });
  }

  /** The secret columns of the site's program row (undefined while the site has none). */
  /** The site's webhook endpoints with the types each subscribes to: where an event would go (a dry run shows it). */
  subscriptions(siteId: string): Promise<Subscription[]> {
    return this.repository.subscriptions(siteId);
  }

  async secrets(siteId: string): Promise<SecretColumns | undefined> {
    return this.repository.find(siteId);
  }

  /** Replaces the site's webhook secret with `next`; the replaced one signs for a day more. */
  replaceWebhookSecret(siteId: string, next: string): Promise<SecretColumns> {
    return this.withProgramRow(siteId, async (trx, row, now) => {
      const columns = replaceSecret(row, next, now);
      await this.repository.saveSecrets(trx, siteId, columns);
      return columns;
    });
  }

  /** The site's webhook secret columns; a site without a secret gets one from `generate` first (the first writer wins). */
  webhookSecretOnce(siteId: string, generate: () => string): Promise<SecretColumns> {
    return this.withProgramRow(siteId, async (trx, row) => {
      if (row.webhook_secret !== null) return row;
      const columns = { ...row, webhook_secret: generate() };
      await this.repository.saveSecrets(trx, siteId, { webhook_secret: columns.webhook_secret });
      return columns;
    });
  }

  /**
   * Runs `fn` in one transaction with the site's program row locked; a site that has none gets
   * its initial program at version 0 first. Throws not_found for a site that does not exist.
   */
  private async withProgramRow<T>(siteId: string, fn: (trx: Db, row: ProgramRow, now: number) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      const site = await this.repository.siteIdentity(siteId, trx);
      if (site === undefined) throw new AppError('not_found', `Site "${siteId}" does not exist`);
      const now = this.now();
      const document = JSON.stringify(initialProgram(site.name, site.timezone));
      const created = await this.repository.ensure(trx, {
        site_id: siteId,
        version: 0,
        document,
        webhook_secret: null,
        previous_webhook_secret: null,
        previous_webhook_secret_until: null,
        updated_at: now,
      });
      // The initial program is the site's first version: it came with the site.
      if (created) {
        await this.repository.keepVersion(trx, {
          site_id: siteId,
          version: 0,
          document,
          changed_by: null,
          changed_at: site.created_at,
          summary: null,
          restored_from: null,
        });
      }
      return fn(trx, (await this.repository.lock(trx, siteId)) as ProgramRow, now);
    });
  }

  /**
   * Runs `change`, a change to the site's webhook endpoints, in one transaction with the program
   * row locked, and raises the program version with it: the snapshot carries the types the
   * endpoints subscribe to (an event of a type nobody receives is not written to the outbox), so
   * every node builds it again, this one at once, the others through Redis or their version check.
   */
  async changeEndpoints(siteId: string, change: (trx: Db) => Promise<void>): Promise<void> {
    const snapshot = await this.withProgramRow(siteId, async (trx, row) => {
      await change(trx);
      const version = row.version + 1;
      await this.repository.saveVersion(trx, siteId, version);
      const subscribed = subscribedTypes(await this.repository.endpointEventTypes(siteId, trx));
      return buildSnapshot(siteId, version, JSON.parse(row.document) as ProgramDocument, subscribed);
    });
    await this.publish(snapshot);
  }

  /** The program, validated, with the callback URLs it changes (from `current`) checked as webhook targets are. */
  private validated(input: unknown, current: ProgramDocument): ProgramDocument {
    const program = validateProgram(input);
    checkCallbackUrls(program, current, this.options.allowPrivateNetworks === true);
    return program;
  }

  /** `restoredFrom`: the kept version a restore of one brings back. */
  private async change(editor: ProgramEditor, next: (current: ProgramDocument) => ProgramDocument, restoredFrom: number | null = null): Promise<ProgramChange> {
    const { siteId } = editor;
    const { result, subscribed } = await this.withProgramRow(siteId, async (trx, row, now) => {
      const before = JSON.parse(row.document) as ProgramDocument;
      const program = next(before);
      const secrets = replaceSecret(row, nextSecret(row.webhook_secret, program.site.webhookSecret), now);
      delete program.site.webhookSecret;
      const version = row.version + 1;
      const document = JSON.stringify(program);
      await this.repository.save(trx, { site_id: siteId, version, document, ...secrets, updated_at: now });
      // The row's document is the one kept last (an endpoint change keeps none): the summary is against it.
      const summary = JSON.stringify(summarize(programChanges(before, program)));
      await this.repository.keepVersion(trx, {
        site_id: siteId,
        version,
        document,
        changed_by: editor.clientId,
        changed_at: now,
        summary,
        restored_from: restoredFrom,
      });
      await this.repository.updateSiteIdentity(trx, siteId, program.site.name, program.site.timezone);
      const progressArchived = await this.repository.archiveProgress(trx, siteId, removedRules(before, program), version, now);
      const subscribed = subscribedTypes(await this.repository.endpointEventTypes(siteId, trx));
      return { result: { version, program, progressArchived, siteChanges: siteChanges(before.site, program.site) }, subscribed };
    });
    await this.publish(buildSnapshot(siteId, result.version, result.program, subscribed));
    return result;
  }

  /** Caches the snapshot of a change just committed, and tells the other nodes to drop theirs. */
  private async publish(snapshot: ProgramSnapshot): Promise<void> {
    this.#cache.set(snapshot.siteId, { snapshot, checkedAt: this.now() });
    await this.options.bus?.publish(TOPIC, snapshot.siteId).catch((error: unknown) => this.options.onError(error));
  }
}

const CALLBACK_URLS = ['achievementCallbackUrl', 'giftNotifyUrl', 'itemPurchaseNotifyUrl'] as const;

/**
 * The site's callback URLs receive webhooks, so they pass the rule webhook endpoints pass (http or
 * https, no credentials, no literal loopback or private address): refused when written, not only
 * when a delivery is attempted.
 */
function checkCallbackUrls(program: ProgramDocument, current: ProgramDocument, allowPrivateNetworks: boolean): void {
  const errors: FieldError[] = [];
  for (const setting of CALLBACK_URLS) {
    const url = program.site[setting];
    // Only a URL being set: one stored before the check existed does not block unrelated edits.
    if (url === undefined || url === '' || url === current.site[setting]) continue;
    try {
      checkedTarget(url, allowPrivateNetworks);
    } catch (error) {
      if (!(error instanceof RefusedTarget)) throw error;
      errors.push({ path: `site.${setting}`, message: error.message });
    }
  }
  if (errors.length > 0) throw new AppError('program_invalid', 'The program breaks a rule', { errors });
}

/**
 * Absent, or the masked form a read returned: keep the current secret (a GET-then-PUT round trip
 * and a restore of a backup, which never carries it, must not wipe it). Empty string: remove it.
 */
function nextSecret(current: string | null, given: string | undefined): string | null {
  if (given === undefined || given.startsWith(SECRET_MASK)) return current;
  return given === '' ? null : given;
}
