// A site's webhook signing secret (SPEC §12): created on first use, readable by admins, rotatable.
// A replaced secret keeps signing beside the new one for a day (src/modules/program/webhook-secret.ts,
// the program row stores them).
import { AppError } from '../../errors.js';
import type { ProgramService } from '../program/service.js';
import type { SecretColumns } from '../program/webhook-secret.js';
import { generateWebhookSecret, isStandardSecret } from './signatures.js';

export interface SecretView {
  secret: string;
  /** When the replaced secret stops signing (ISO 8601), or null when none is signing beside it. */
  previousSecretValidUntil: string | null;
}

export class WebhookSecrets {
  constructor(
    private readonly programs: ProgramService,
    private readonly clock: () => number,
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
    return this.view(await this.programs.replaceWebhookSecret(siteId, given ?? generateWebhookSecret()));
  }

  private async current(siteId: string): Promise<SecretColumns> {
    const row = await this.programs.secrets(siteId);
    if (row?.webhook_secret != null) return row;
    // The first delivery (or read) of a site without one: every event is signed.
    return this.programs.webhookSecretOnce(siteId, generateWebhookSecret);
  }

  private view(row: SecretColumns): SecretView {
    const until = row.previous_webhook_secret !== null ? row.previous_webhook_secret_until : null;
    return {
      secret: row.webhook_secret as string,
      previousSecretValidUntil: until !== null && until > this.clock() ? new Date(until).toISOString() : null,
    };
  }
}
