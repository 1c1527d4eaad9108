// Sites (tenants) and their app clients (SPEC §3). Secrets are returned once, at creation or
// rotation, and stored only as scrypt hashes.
import type { ClientRole } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { isValidId } from '../../http/ids.js';
import { canonicalTimeZone, unknownTimeZone } from '../../time.js';
import type { ClientRegistry } from './client-registry.js';
import type { ClientRow, SiteRow, SitesRepository } from './repository.js';
import { generateClientId, generateClientSecret, hashSecret } from './client-secrets.js';

export const DEFAULT_TIMEZONE = 'America/Los_Angeles';

export interface NewSite {
  siteId?: string;
  name: string;
  timezone?: string;
}

export interface ClientCredentials {
  siteId: string;
  clientId: string;
  clientSecret: string;
  role: ClientRole;
}

export interface ClientSummary {
  siteId: string;
  clientId: string;
  role: ClientRole;
  createdAt: string;
}

export class SitesService {
  constructor(
    private readonly repository: SitesRepository,
    private readonly registry: ClientRegistry,
    private readonly clock: () => number,
  ) {}

  async createSite(input: NewSite): Promise<SiteRow> {
    const siteId = input.siteId ?? `site-${generateClientId().slice(4, 12)}`;
    // Stored as the IANA zone, also when given by its Windows name ("Pacific Standard Time").
    const timezone = canonicalTimeZone(input.timezone ?? DEFAULT_TIMEZONE);
    const errors = [];
    if (!isValidId(siteId)) errors.push({ path: 'siteId', message: 'must be 1–255 letters, digits or -_.@:+' });
    if (input.name.trim() === '' || input.name.length > 255) errors.push({ path: 'name', message: 'must be 1–255 characters' });
    if (timezone === undefined) errors.push({ path: 'timezone', message: unknownTimeZone(input.timezone ?? '') });
    if (errors.length > 0 || timezone === undefined) throw new AppError('validation_failed', 'The site is invalid', { errors });
    if (await this.repository.findSite(siteId)) throw new AppError('conflict', `Site "${siteId}" already exists`);
    const site: SiteRow = { site_id: siteId, name: input.name.trim(), timezone, created_at: this.clock() };
    await this.repository.insertSite(site);
    return site;
  }

  listSites(): Promise<SiteRow[]> {
    return this.repository.listSites();
  }

  findSite(siteId: string): Promise<SiteRow | undefined> {
    return this.repository.findSite(siteId);
  }

  /** A live client as stored, its secret's hash included (the token endpoint checks secrets against it). */
  findClient(clientId: string): Promise<ClientRow | undefined> {
    return this.repository.findClient(clientId);
  }

  /** The site's live clients as stored (the /demo page issues tokens as the demo site's app client). */
  storedClients(siteId: string): Promise<ClientRow[]> {
    return this.repository.listClients(siteId);
  }

  /** A setting of the site (site `''`: of the instance), as stored. */
  setting(siteId: string, name: string): Promise<string | undefined> {
    return this.repository.setting(siteId, name);
  }

  /** The setting as stored, or `value` stored now if there was none: the first writer wins, and every node reads what it wrote. */
  settingOnce(siteId: string, name: string, value: string): Promise<string> {
    return this.repository.settingOnce(siteId, name, value);
  }

  async createClient(siteId: string, role: ClientRole): Promise<ClientCredentials> {
    if (role !== 'admin' && role !== 'app') {
      throw new AppError('validation_failed', 'The client is invalid', { errors: [{ path: 'role', message: 'must be admin or app' }] });
    }
    if (!(await this.repository.findSite(siteId))) throw new AppError('not_found', `Site "${siteId}" does not exist`);
    const clientId = generateClientId();
    const clientSecret = generateClientSecret();
    const now = this.clock();
    await this.repository.insertClient({
      site_id: siteId,
      client_id: clientId,
      role,
      secret_hash: await hashSecret(clientSecret),
      secret_version: 1,
      rate_limit_rps: null,
      rate_limit_burst: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
    return { siteId, clientId, clientSecret, role };
  }

  async listClients(siteId: string): Promise<ClientSummary[]> {
    const rows = await this.repository.listClients(siteId);
    return rows.map((row) => ({
      siteId: row.site_id,
      clientId: row.client_id,
      role: row.role,
      createdAt: new Date(row.created_at).toISOString(),
    }));
  }

  /** A new secret; every token issued under the old one stops working (SPEC §3). */
  async rotateClient(clientId: string): Promise<ClientCredentials> {
    const clientSecret = generateClientSecret();
    const row = await this.repository.replaceSecret(clientId, await hashSecret(clientSecret), this.clock());
    if (!row) throw new AppError('not_found', `Client "${clientId}" does not exist`);
    await this.registry.invalidate(row);
    return { siteId: row.site_id, clientId, clientSecret, role: row.role };
  }

  /**
   * The client's contractual request rate (SPEC §3): tokens per second and burst, or null for the
   * configured default. Every node applies it on its next refresh (at once with Redis).
   */
  async setClientRate(
    clientId: string,
    limit: { rate: number; burst: number } | null,
  ): Promise<{ clientId: string; rate: number | null; burst: number | null }> {
    if (limit !== null && !(Number.isFinite(limit.rate) && limit.rate > 0 && Number.isInteger(limit.burst) && limit.burst >= 1)) {
      throw new AppError('validation_failed', 'The rate is invalid', {
        errors: [{ path: 'rate', message: 'rate must be a positive number and burst a whole number of at least 1' }],
      });
    }
    const row = await this.repository.setRate(clientId, limit?.rate ?? null, limit?.burst ?? null, this.clock());
    if (!row) throw new AppError('not_found', `Client "${clientId}" does not exist`);
    await this.registry.invalidate(row);
    return { clientId, rate: row.rate_limit_rps, burst: row.rate_limit_burst };
  }

  async deleteClient(clientId: string): Promise<void> {
    const client = await this.repository.findClient(clientId);
    if (!client || !(await this.repository.softDeleteClient(clientId, this.clock()))) {
      throw new AppError('not_found', `Client "${clientId}" does not exist`);
    }
    await this.registry.invalidate({ ...client, deleted_at: this.clock() });
  }
}
