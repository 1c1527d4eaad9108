// Which events are written to the outbox (hasDestination): those that, when they happen, have a
// destination, by the rule the dispatcher routes them with (destinationsOf), so the two cannot
// disagree.
import { describe, expect, it } from 'vitest';
import type { ProgramDocument } from '../../../src/modules/program/model.js';
import { initialProgram } from '../../../src/modules/program/service.js';
import { destinationsOf, hasDestination, subscribedTypes, type Subscription } from '../../../src/modules/program/event-routing.js';

const HOOK = 'https://hooks.example.com/q';
const site = (urls: Partial<ProgramDocument['site']> = {}): ProgramDocument['site'] => ({ ...initialProgram('Site').site, ...urls });
const endpoint = (endpointId: string, ...eventTypes: string[]): Subscription => ({ endpointId, url: `${HOOK}/${endpointId}`, eventTypes });

describe('hasDestination', () => {
  it.each([
    ['mission.completed, no achievementCallbackUrl', false, 'mission.completed', {}, site(), []],
    ['mission.completed, an empty achievementCallbackUrl', false, 'mission.completed', {}, site({ achievementCallbackUrl: '' }), []],
    ['mission.completed, achievementCallbackUrl set', true, 'mission.completed', {}, site({ achievementCallbackUrl: HOOK }), []],
    ['mission.completed, only other URLs set', false, 'mission.completed', {}, site({ giftNotifyUrl: HOOK, itemPurchaseNotifyUrl: HOOK }), []],
    // An endpoint may not subscribe to a type with a site URL; were one stored, it still would not receive it.
    ['mission.completed, an endpoint naming it', false, 'mission.completed', {}, site(), [endpoint('e1', 'mission.completed')]],
    ['a gift, giftNotifyUrl set', true, 'award.debited', { kind: 'gift' }, site({ giftNotifyUrl: HOOK }), []],
    ['a gift, only itemPurchaseNotifyUrl set', false, 'award.debited', { kind: 'gift' }, site({ itemPurchaseNotifyUrl: HOOK }), []],
    ['a purchase, itemPurchaseNotifyUrl set', true, 'award.debited', { kind: 'purchase' }, site({ itemPurchaseNotifyUrl: HOOK }), []],
    ['a purchase, only giftNotifyUrl set', false, 'award.debited', { kind: 'purchase' }, site({ giftNotifyUrl: HOOK }), []],
    ['badge.earned, no endpoint', false, 'badge.earned', {}, site({ achievementCallbackUrl: HOOK }), []],
    ['badge.earned, an endpoint of other types', false, 'badge.earned', {}, site(), [endpoint('e1', 'level.changed', 'recognition.given')]],
    ['badge.earned, one of two endpoints subscribed', true, 'badge.earned', {}, site(), [endpoint('e1', 'level.changed'), endpoint('e2', 'badge.earned')]],
    ['level.changed, subscribed', true, 'level.changed', {}, site(), [endpoint('e1', 'badge.earned', 'level.changed')]],
    ['recognition.given, subscribed', true, 'recognition.given', {}, site(), [endpoint('e1', 'recognition.given')]],
    ['recognition.given, no endpoint', false, 'recognition.given', {}, site({ achievementCallbackUrl: HOOK, giftNotifyUrl: HOOK }), []],
  ])('%s → %s', (_name, expected, eventType, data, settings, subscriptions) => {
    const event = { eventType, data };
    expect(hasDestination(event, { site: settings, subscribedTypes: subscribedTypes(subscriptions) })).toBe(expected);
    // The rule the dispatcher routes by says the same.
    expect(destinationsOf(event, settings, subscriptions).length > 0).toBe(expected);
  });
});

describe('subscribedTypes', () => {
  it('is every type some endpoint subscribes to, once', () => {
    expect(subscribedTypes([])).toEqual(new Set());
    expect(subscribedTypes([endpoint('e1', 'badge.earned', 'level.changed'), endpoint('e2', 'badge.earned')])).toEqual(
      new Set(['badge.earned', 'level.changed']),
    );
  });
});
