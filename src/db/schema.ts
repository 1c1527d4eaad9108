// Table types for Kysely. Instants are integer milliseconds since the Unix epoch (bigint on
// PostgreSQL, read back as numbers); every table carries site_id (SPEC §1: distributable by site).
export interface SitesTable {
  site_id: string;
  name: string;
  timezone: string;
  created_at: number;
}

export type ClientRole = 'admin' | 'app';

export interface ClientsTable {
  site_id: string;
  client_id: string;
  role: ClientRole;
  /** scrypt hash of the secret, in the self-describing form written by src/modules/sites/secrets.ts. */
  secret_hash: string;
  /** Bumped on rotation; tokens carry the version they were issued under. */
  secret_version: number;
  /** Per-client request rate (tokens per second), null for the configured default. */
  rate_limit_rps: number | null;
  rate_limit_burst: number | null;
  created_at: number;
  updated_at: number;
  /** Soft delete keeps the row so every node sees the revocation on its next refresh. */
  deleted_at: number | null;
}

/** Instance-wide settings live under site_id '' (the generated token secret, for one). */
export interface InstanceSettingsTable {
  site_id: string;
  name: string;
  value: string;
}

export interface SiteProgramsTable {
  site_id: string;
  version: number;
  /** The canonical program as JSON, without the webhook secret. */
  document: string;
  webhook_secret: string | null;
  updated_at: number;
}

export interface BackupsTable {
  site_id: string;
  backup_id: string;
  name: string;
  xml: string;
  created_at: number;
}

export interface GroupMembersTable {
  site_id: string;
  group_id: string;
  user_id: string;
  joined_at: number;
}

export interface DatabaseSchema {
  sites: SitesTable;
  clients: ClientsTable;
  instance_settings: InstanceSettingsTable;
  site_programs: SiteProgramsTable;
  backups: BackupsTable;
  group_members: GroupMembersTable;
}
