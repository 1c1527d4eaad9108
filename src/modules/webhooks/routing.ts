// Where each event type goes (SPEC §12): mission events to the site's achievementCallbackUrl,
// award debits to giftNotifyUrl or itemPurchaseNotifyUrl, every other type only to the endpoints
// an admin subscribed to it.
import type { ProgramDocument } from '../program/model.js';

export const EVENT_TYPES = ['mission.completed', 'level.changed', 'badge.earned', 'recognition.given', 'award.debited'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The event types with no site URL: admins subscribe endpoints to these. */
export const SUBSCRIBABLE_TYPES = ['level.changed', 'badge.earned', 'recognition.given'] as const satisfies readonly EventType[];

type SiteUrlSetting = 'achievementCallbackUrl' | 'giftNotifyUrl' | 'itemPurchaseNotifyUrl';

export interface Subscription {
  endpointId: string;
  url: string;
  eventTypes: readonly string[];
}

/** The site setting an event goes to, if its type goes to one. */
function siteSetting(eventType: string, data: Record<string, unknown>): SiteUrlSetting | undefined {
  if (eventType === 'mission.completed') return 'achievementCallbackUrl';
  if (eventType === 'award.debited') return data.kind === 'gift' ? 'giftNotifyUrl' : 'itemPurchaseNotifyUrl';
  return undefined;
}

/** The destinations of one event: `site:<setting>` and `endpoint:<id>` names. */
export function destinationsOf(event: { eventType: string; data: Record<string, unknown> }, site: ProgramDocument['site'], subscriptions: readonly Subscription[]): string[] {
  const setting = siteSetting(event.eventType, event.data);
  if (setting !== undefined) return site[setting] !== undefined && site[setting] !== '' ? [`site:${setting}`] : [];
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
