// The site's webhook signing secret as the program row stores it (SPEC §12): a replaced secret (by
// rotation, or by a program write that sets a new one) keeps signing beside the new one for a day,
// so that receivers can switch without losing a delivery. Signing: src/modules/webhooks/.
import type { ProgramRow } from './repository.js';

export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export type SecretColumns = Pick<ProgramRow, 'webhook_secret' | 'previous_webhook_secret' | 'previous_webhook_secret_until'>;

/** The columns after `next` replaces the row's secret; a replaced secret signs until the overlap ends. */
export function replaceSecret(row: SecretColumns, next: string | null, now: number): SecretColumns {
  if (next === row.webhook_secret) {
    return {
      webhook_secret: row.webhook_secret,
      previous_webhook_secret: row.previous_webhook_secret,
      previous_webhook_secret_until: row.previous_webhook_secret_until,
    };
  }
  if (row.webhook_secret === null) return { webhook_secret: next, previous_webhook_secret: null, previous_webhook_secret_until: null };
  return { webhook_secret: next, previous_webhook_secret: row.webhook_secret, previous_webhook_secret_until: now + SECRET_OVERLAP_MS };
}
