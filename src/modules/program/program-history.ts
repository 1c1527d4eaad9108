// Reading a site's program history (docs/program.md, "Program history"): the versions every
// program change kept, newest first, and one version with its document and what it changed against
// the version kept before it. ProgramService writes them, in the transaction of each change.
import { AppError } from '../../errors.js';
import type { ProgramDocument } from './model.js';
import type { ProgramRepository, ProgramVersionRow } from './repository.js';
import { programChanges, type EntityChange, type ProgramSummary } from './version-diff.js';

/** A kept version of a site's program, without its document. */
export interface KeptVersion {
  version: number;
  changedAt: string;
  /** The admin client's id, `cli` (the questline command), or null: Questline itself, or not known (kept before the history was). */
  changedBy: string | null;
  /** Null for a site's first kept version: nothing before it to compare with. */
  summary: ProgramSummary | null;
  /** The kept version a restore of one brought back. */
  restoredFrom: number | null;
}

export interface KeptVersionDetail extends KeptVersion {
  document: ProgramDocument;
  /** The version kept before this one (null for the first): `changes` are against it. */
  previousVersion: number | null;
  changes: EntityChange[] | null;
}

export class ProgramHistory {
  constructor(
    private readonly repository: ProgramRepository,
    /** Version 0 of a site whose program was never written (so none is kept); undefined once it was. */
    private readonly initialVersion: (siteId: string) => Promise<ProgramVersionRow | undefined>,
  ) {}

  /** The site's kept versions, newest first; a site whose program was never written has its initial one, version 0. */
  async list(siteId: string, limit: number, offset: number): Promise<{ total: number; versions: KeptVersion[] }> {
    const { total, rows } = await this.repository.versions(siteId, limit, offset);
    if (total > 0) return { total, versions: rows.map(keptVersion) };
    const initial = await this.initialVersion(siteId);
    if (initial === undefined) return { total: 0, versions: [] };
    return { total: 1, versions: offset === 0 ? [keptVersion(initial)] : [] };
  }

  /** One kept version as stored; not_found for a version this site did not keep. */
  async kept(siteId: string, version: number): Promise<ProgramVersionRow> {
    const kept = (await this.repository.keptVersion(siteId, version)) ?? (version === 0 ? await this.initialVersion(siteId) : undefined);
    if (kept === undefined) throw new AppError('not_found', `No program version ${version} in this site`);
    return kept;
  }

  /** One kept version: its document, and what it changed against the version kept before it. */
  async detail(siteId: string, version: number): Promise<KeptVersionDetail> {
    const kept = await this.kept(siteId, version);
    const document = JSON.parse(kept.document) as ProgramDocument;
    const previous = version > 0 ? await this.repository.keptBefore(siteId, version) : undefined;
    return {
      ...keptVersion(kept),
      document,
      previousVersion: previous?.version ?? null,
      changes: previous === undefined ? null : programChanges(JSON.parse(previous.document) as ProgramDocument, document),
    };
  }
}

function keptVersion(row: Omit<ProgramVersionRow, 'document'>): KeptVersion {
  return {
    version: row.version,
    changedAt: new Date(row.changed_at).toISOString(),
    changedBy: row.changed_by,
    summary: row.summary === null ? null : (JSON.parse(row.summary) as ProgramSummary),
    restoredFrom: row.restored_from,
  };
}
