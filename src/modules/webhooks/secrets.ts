// A site's webhook signing secret (SPEC §12): created on first use, readable by admins, rotatable.
// A replaced secret (by rotation, or by a program write that sets a new one) keeps signing beside
// the new one for a day, so that receivers can switch without losing a delivery.
import { AppError } from '../../errors.js';
import type { ProgramRow } from '../program/repository.js';
import type { ProgramService } from '../program/service.js';
import { generateWebhookSecret, isStandardSecret } from './signing.js';

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

export interface SecretView {
  secret: string;
  /** When the replaced secret stops signing (ISO 8601), or null when none is signing beside it. */
  previousSecretValidUntil: string | null;
}

export class WebhookSecrets {
  constructor(
    private readonly programs: ProgramService,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The secrets that sign a delivery made now, the current one first; the site's first is created here. */
  async signing(siteId: string): Promise<string[]> {
    const row = await this.current(siteId);
    const now = this.clock();
    const previous = row.previous_webhook_secret !== null && (row.previous_webhook_secret_until ?? 0) > now ? [row.previous_webhook_secret] : [];
    return [row.webhook_secret as string, ...previous];
  }

  /** The secret in full (admins configure receivers with it). */
  async reveal(siteId: string): Promise<SecretView> {
    return this.view(await this.current(siteId));
  }

  /** Replaces the secret with `given` (a `whsec_` secret) or a generated one; the old one signs for another day. */
  async rotate(siteId: string, given?: string): Promise<SecretView> {
    if (given !== undefined && !isStandardSecret(given)) {
      throw new AppError('validation_failed', 'The secret is invalid', {
        errors: [{ path: 'secret', message: 'must be whsec_ followed by 24 to 64 bytes in base64' }],
      });
    }
    const row = await this.programs.withProgramRow(siteId, async (trx, locked, now) => {
      const columns = replaceSecret(locked, given ?? generateWebhookSecret(), now);
      await trx.updateTable('site_programs').set(columns).where('site_id', '=', siteId).execute();
      return columns;
    });
    return this.view(row);
  }

  private async current(siteId: string): Promise<SecretColumns> {
    const row = await this.programs.secrets(siteId);
    if (row?.webhook_secret != null) return row;
    // The first delivery (or read) of a site without one: every event is signed.
    return this.programs.withProgramRow(siteId, async (trx, locked) => {
      if (locked.webhook_secret !== null) return locked;
      const columns = { ...locked, webhook_secret: generateWebhookSecret() };
      await trx.updateTable('site_programs').set({ webhook_secret: columns.webhook_secret }).where('site_id', '=', siteId).execute();
      return columns;
    });
  }

  private view(row: SecretColumns): SecretView {
    const until = row.previous_webhook_secret !== null ? row.previous_webhook_secret_until : null;
    return {
      secret: row.webhook_secret as string,
      previousSecretValidUntil: until !== null && until > this.clock() ? new Date(until).toISOString() : null,
    };
  }
}
