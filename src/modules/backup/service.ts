// Backups and restores of a site's configuration (SPEC §13): the program only (no user data, no
// secrets), as XML. A restore is validated completely before anything is written, then applied in
// one transaction; on any error nothing changes and every problem is listed by its XML location.
import { uuidv7 } from '../../uuid.js';
import type { Db } from '../../db/index.js';
import { AppError } from '../../errors.js';
import type { ProgramDocument } from '../program/model.js';
import type { ProgramEditor, ProgramPreview, ProgramService } from '../program/service.js';
import type { SiteChange } from '../program/site-changes.js';
import { validateProgram } from '../program/validate.js';
import { BackupRepository } from './repository.js';
import { RestoreGate } from './restore-gate.js';
import { programToXml, xmlToProgram } from './xml.js';
import { xmlPath } from './xml-spec.js';

export interface BackupSummary {
  id: string;
  name: string;
  createdAt: string;
}

export interface RestoreResult {
  version: number;
  missions: number;
  actions: number;
  /** Progress on rules the restored program no longer has, archived (SPEC §4, §13). */
  progressArchived: { parties: number; rows: number };
  /** The site settings the restore changed: restoring another site's backup renames this one. */
  siteChanges: SiteChange[];
}

export type RestoreStep = 'read' | 'parsed' | 'validated' | 'applied';

/** The validated program in a backup document: parsing and validation, the synchronous part of a restore. */
function readProgram(xml: string, onStep: (step: RestoreStep) => void): ProgramDocument {
  const parsed = xmlToProgram(xml);
  onStep('parsed');
  try {
    return validateProgram(parsed);
  } catch (error) {
    throw inXmlTerms(error);
  }
}

/** The error, its field errors located in the XML document. */
function inXmlTerms(error: unknown): unknown {
  if (!(error instanceof AppError) || error.options.errors === undefined) return error;
  return new AppError(error.code, error.message, { errors: error.options.errors.map((e) => ({ path: xmlPath(e.path), message: e.message })) });
}

export class BackupService {
  /** Restores take turns, one at a time in this process (./restore-gate.ts). */
  readonly restores = new RestoreGate();
  readonly #repository: BackupRepository;

  constructor(
    db: Db,
    private readonly programs: ProgramService,
    private readonly clock: () => number,
  ) {
    this.#repository = new BackupRepository(db);
  }

  async create(siteId: string, name: string | undefined): Promise<BackupSummary> {
    const xml = await this.backupXml(siteId);
    const createdAt = this.clock();
    const id = `bk_${uuidv7()}`;
    const backupName = name ?? `Backup ${new Date(createdAt).toISOString()}`;
    await this.#repository.insert({ site_id: siteId, backup_id: id, name: backupName, xml, created_at: createdAt });
    return { id, name: backupName, createdAt: new Date(createdAt).toISOString() };
  }

  /** The site's current configuration as a backup document (what POST /backup stores). */
  async backupXml(siteId: string): Promise<string> {
    return programToXml((await this.programs.snapshot(siteId)).program);
  }

  async list(siteId: string, limit: number, offset: number): Promise<{ total: number; backups: BackupSummary[] }> {
    const { total, rows } = await this.#repository.list(siteId, limit, offset);
    return {
      total,
      backups: rows.map((row) => ({ id: row.backup_id, name: row.name, createdAt: new Date(row.created_at).toISOString() })),
    };
  }

  async get(siteId: string, backupId: string): Promise<string> {
    const xml = await this.#repository.xml(siteId, backupId);
    if (xml === undefined) throw new AppError('not_found', `No backup "${backupId}" in this site`);
    return xml;
  }

  /** Restores an XML document into the editor's site; `onStep` reports progress (the CLI prints it). */
  async restore(editor: ProgramEditor, xml: string, onStep: (step: RestoreStep) => void = () => undefined): Promise<RestoreResult> {
    const { siteId } = editor;
    onStep('read');
    // The whole restore takes its turn: replace() validates the program again, synchronously too.
    return this.restores.run(siteId, async () => {
      const program = readProgram(xml, onStep);
      onStep('validated');
      // The program service checks what validation alone cannot (the callback URLs as webhook targets).
      const { version, progressArchived, siteChanges } = await this.programs.replace(editor, program).catch((error: unknown) => {
        throw inXmlTerms(error);
      });
      onStep('applied');
      return { version, missions: program.missions.length, actions: program.actions.length, progressArchived, siteChanges };
    });
  }

  restoreBackup(editor: ProgramEditor, backupId: string): Promise<RestoreResult> {
    return this.get(editor.siteId, backupId).then((xml) => this.restore(editor, xml));
  }

  /**
   * What restoring the document would do, writing nothing: the program preview of the program it
   * holds, with restore()'s errors (malformed XML with its line and column, field errors by XML
   * location). Parsing costs what a restore's does, so a preview takes its turn with the restores.
   */
  preview(siteId: string, xml: string): Promise<ProgramPreview> {
    return this.restores.run(siteId, async () => {
      const program = readProgram(xml, () => undefined);
      return this.programs.preview(siteId, program).catch((error: unknown) => {
        throw inXmlTerms(error);
      });
    });
  }

  previewBackup(siteId: string, backupId: string): Promise<ProgramPreview> {
    return this.get(siteId, backupId).then((xml) => this.preview(siteId, xml));
  }
}
