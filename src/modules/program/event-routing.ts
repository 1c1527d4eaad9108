// Where each event type goes (SPEC §12): mission events to the site's achievementCallbackUrl,
// award debits to giftNotifyUrl or itemPurchaseNotifyUrl, every other type only to the endpoints
// an admin subscribed to it. The same rule decides twice: when an event happens, whether it is
// written to the outbox at all (hasDestination), and when the dispatcher routes it, where it goes
// (destinationsOf). A rule of the program: its snapshot carries the site's destinations
// (./snapshot.ts), which the ledger's writers and the webhooks dispatcher (src/modules/webhooks/) read.
import type { ProgramDocument } from './model.js';

export const EVENT_TYPES = [
  'mission.completed',
  'level.changed',
  'badge.earned',
  'recognition.given',
  'award.debited',
  'points.earned',
  'points.expired',
  'streak.extended',
  'streak.frozen',
  'streak.broken',
  'leaderboard.closed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The event types with no site URL: admins subscribe endpoints to these. */
export const SUBSCRIBABLE_TYPES = [
  'level.changed',
  'badge.earned',
  'recognition.given',
  'points.earned',
  'points.expired',
  'streak.extended',
  'streak.frozen',
  'streak.broken',
  'leaderboard.closed',
] as const satisfies readonly EventType[];

type SiteUrlSetting = 'achievementCallbackUrl' | 'giftNotifyUrl' | 'itemPurchaseNotifyUrl';

export interface Subscription {
  endpointId: string;
  url: string;
  eventTypes: readonly string[];
}

/**
 * What a site's events can go to as its program snapshot knows it: the site settings (callback
 * URLs) and the types some endpoint of the site subscribes to.
 */
export interface SiteDestinations {
  site: ProgramDocument['site'];
  subscribedTypes: ReadonlySet<string>;
}

/** The types some of the endpoints subscribe to. */
export function subscribedTypes(subscriptions: ReadonlyArray<Pick<Subscription, 'eventTypes'>>): ReadonlySet<string> {
  return new Set(subscriptions.flatMap((s) => s.eventTypes));
}

/** The site setting an event goes to, if its type goes to one. */
function siteSetting(eventType: string, data: Record<string, unknown>): SiteUrlSetting | undefined {
  if (eventType === 'mission.completed') return 'achievementCallbackUrl';
  if (eventType === 'award.debited') return data.kind === 'gift' ? 'giftNotifyUrl' : 'itemPurchaseNotifyUrl';
  return undefined;
}

const hasUrl = (site: ProgramDocument['site'], setting: SiteUrlSetting) => site[setting] !== undefined && site[setting] !== '';

/**
 * Whether an event has a destination now: one that has none is not written to the outbox (its
 * row would be routed to nothing). Exactly when destinationsOf() would name one, given the
 * subscriptions the types were taken from.
 */
export function hasDestination(event: { eventType: string; data: Record<string, unknown> }, { site, subscribedTypes }: SiteDestinations): boolean {
  const setting = siteSetting(event.eventType, event.data);
  return setting !== undefined ? hasUrl(site, setting) : subscribedTypes.has(event.eventType);
}

/** The destinations of one event: `site:<setting>` and `endpoint:<id>` names. */
export function destinationsOf(
  event: { eventType: string; data: Record<string, unknown> },
  site: ProgramDocument['site'],
  subscriptions: readonly Subscription[],
): string[] {
  const setting = siteSetting(event.eventType, event.data);
  if (setting !== undefined) return hasUrl(site, setting) ? [`site:${setting}`] : [];
  return subscriptions.filter((s) => s.eventTypes.includes(event.eventType)).map((s) => `endpoint:${s.endpointId}`);
}

/** The URL a destination has now (read at each attempt: a corrected URL serves the retries), or undefined when it is gone. */
export function urlOf(destination: string, site: ProgramDocument['site'], subscriptions: readonly Subscription[]): string | undefined {
  if (destination.startsWith('site:')) {
    const url = site[destination.slice('site:'.length) as SiteUrlSetting];
    return url === '' ? undefined : url;
  }
  const endpointId = destination.slice('endpoint:'.length);
  return subscriptions.find((s) => s.endpointId === endpointId)?.url;
}
