// User preferences (interface document §2 "User preferences", SPEC §7): the reserved names, custom
// ones, and the role admins set. iconUrl replaced userPhotoUrl (30 Sep 2026): the legacy value is
// still stored, read back, and used as iconUrl while no iconUrl is set.
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/index.js';
import type { InvalidationBus } from '../../infra/redis.js';
import { AppError, type FieldError } from '../../errors.js';
import { nameOf, type Name } from './names.js';
import { UsersRepository } from './repository.js';
import type { SharedNames } from './shared-names.js';

export type { Name } from './names.js';

export const RESERVED = ['firstName', 'lastName', 'userProfileUrl', 'iconUrl', 'userPhotoUrl'] as const;
const MAX_CUSTOM = 50;
const MAX_VALUE = 1000;
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;
/** Names that would reach Object.prototype when stored in a plain object. */
const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

export interface Preferences {
  firstName: string | null;
  lastName: string | null;
  userProfileUrl: string | null;
  iconUrl: string | null;
  userPhotoUrl: string | null;
  role: string | null;
  custom: Record<string, string>;
}

/** Names kept in memory for leaderboard pages (a top-100 page reads no rows once warm). */
const NAMES_CACHED = 200_000;
const TOPIC = 'names';

export class PreferencesService {
  /** siteId \0 userId → name, or 'none' for a user without a profile. */
  readonly #names = new LRUCache<string, Name | 'none'>({ max: NAMES_CACHED });
  /** Raised by every write: a read that started before it does not cache what it read. */
  #generation = 0;
  readonly #repository: UsersRepository;

  constructor(
    db: Db,
    private readonly clock: () => number,
    private readonly options: { bus?: InvalidationBus | undefined; shared?: SharedNames | undefined; onError: (error: unknown) => void },
  ) {
    this.#repository = new UsersRepository(db);
  }

  /** Raised by every preference write (here, or on another node as far as this one has heard): names read before it may be stale. */
  get generation(): number {
    return this.#generation;
  }

  /** Listens for other nodes' writes (scale-out). */
  async start(): Promise<void> {
    await this.options.bus?.subscribe(TOPIC, (key) => this.#forget(key));
  }

  async read(siteId: string, userId: string): Promise<Preferences> {
    const row = await this.#repository.profile(siteId, userId);
    return present(row === undefined ? {} : (JSON.parse(row.preferences) as Record<string, string>), row?.role ?? null);
  }

  /** Names and icons of many users at once (leaderboard entries); users without a profile are absent. */
  async names(siteId: string, userIds: readonly string[]): Promise<Map<string, Name>> {
    const names = new Map<string, Name>();
    const missing: string[] = [];
    for (const userId of userIds) {
      const cached = this.#names.get(nameKey(siteId, userId));
      if (cached === undefined) missing.push(userId);
      else if (cached !== 'none') names.set(userId, cached);
    }
    const generation = this.#generation;
    const found = missing.length === 0 ? new Map<string, Name>() : await this.storedNames(siteId, missing);
    for (const userId of missing) {
      const name = found.get(userId);
      if (name !== undefined) names.set(userId, name);
      if (generation === this.#generation) this.#names.set(nameKey(siteId, userId), name ?? 'none');
    }
    return names;
  }

  /** The names of users as stored (not from this node's cache); users without a profile are absent. */
  async storedNames(siteId: string, userIds: readonly string[]): Promise<Map<string, Name>> {
    const found = new Map<string, Name>();
    for (const row of await this.#repository.preferencesOf(siteId, userIds))
      found.set(row.user_id, nameOf(JSON.parse(row.preferences) as Record<string, string>));
    return found;
  }

  /**
   * Sets the given preferences and keeps the others; a null or empty value removes one. Says
   * whether the legacy userPhotoUrl was written (the route answers with deprecation headers).
   */
  async write(siteId: string, userId: string, body: unknown): Promise<{ preferences: Preferences; legacyWritten: boolean }> {
    try {
      return await this.#write(siteId, userId, body);
    } finally {
      await this.#changed(siteId, userId);
    }
  }

  async #write(siteId: string, userId: string, body: unknown): Promise<{ preferences: Preferences; legacyWritten: boolean }> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new AppError('validation_failed', 'The preferences are invalid', { errors: [{ path: '(body)', message: 'must be an object of name: value' }] });
    }
    const changes = Object.entries(body as Record<string, unknown>);
    const errors: FieldError[] = [];
    for (const [name, value] of changes) {
      if (name === 'role') errors.push({ path: 'role', message: 'is read-only here; admins set it with PUT /admin/users/{userId}/role' });
      else if (name === 'custom') errors.push({ path: 'custom', message: 'send custom preferences as top-level names' });
      else if (!NAME.test(name) || FORBIDDEN_NAMES.has(name))
        errors.push({ path: name, message: 'names are 1–100 letters, digits, _ . or - (and not __proto__, constructor or prototype)' });
      else if (value !== null && typeof value !== 'string') errors.push({ path: name, message: 'must be a string (or null to remove it)' });
      else if (typeof value === 'string' && value.length > MAX_VALUE) errors.push({ path: name, message: `must be at most ${MAX_VALUE} characters` });
    }
    if (errors.length > 0) throw new AppError('validation_failed', 'The preferences are invalid', { errors });

    return this.#repository.changeProfile(siteId, userId, this.clock(), (row) => {
      const stored = row === undefined ? {} : (JSON.parse(row.preferences) as Record<string, string>);
      for (const [name, value] of changes as Array<[string, string | null]>) {
        if (value === null || value === '') delete stored[name];
        else stored[name] = value;
      }
      const custom = Object.keys(stored).filter((name) => !(RESERVED as readonly string[]).includes(name));
      if (custom.length > MAX_CUSTOM) {
        throw new AppError('validation_failed', 'The preferences are invalid', {
          errors: [{ path: '(body)', message: `at most ${MAX_CUSTOM} custom preferences (this would make ${custom.length})` }],
        });
      }
      return {
        preferences: JSON.stringify(stored),
        searchName: searchName(stored),
        answer: { preferences: present(stored, row?.role ?? null), legacyWritten: changes.some(([name]) => name === 'userPhotoUrl') },
      };
    });
  }

  async setRole(siteId: string, userId: string, role: string | null): Promise<Preferences> {
    await this.#repository.setRole(siteId, userId, role, this.clock());
    await this.#changed(siteId, userId);
    return this.read(siteId, userId);
  }

  /** After a write: the cached name goes, here, on the other nodes and (scale-out) beside the boards. */
  async #changed(siteId: string, userId: string): Promise<void> {
    const key = nameKey(siteId, userId);
    this.#forget(key);
    const onError = (error: unknown) => this.options.onError(error);
    await Promise.all([this.options.bus?.publish(TOPIC, key).catch(onError), this.options.shared?.forget(siteId, userId).catch(onError)]);
  }

  #forget(key: string): void {
    this.#generation += 1;
    this.#names.delete(key);
  }
}

/** "first last", lowercased: what the recipients search matches (null without a name). */
export function searchName(stored: { firstName?: string; lastName?: string }): string | null {
  const name = [stored.firstName, stored.lastName].filter((part) => part !== undefined && part !== '').join(' ');
  return name === '' ? null : name.toLowerCase();
}

function nameKey(siteId: string, userId: string): string {
  return `${siteId}\u0000${userId}`;
}

function present(stored: Record<string, string>, role: string | null): Preferences {
  const custom: Record<string, string> = {};
  for (const [name, value] of Object.entries(stored)) if (!(RESERVED as readonly string[]).includes(name)) custom[name] = value;
  const { firstName, lastName, iconUrl } = nameOf(stored);
  return { firstName, lastName, userProfileUrl: stored.userProfileUrl ?? null, iconUrl, userPhotoUrl: stored.userPhotoUrl ?? null, role, custom };
}
