// Bulk import of a program's history (docs/import.md): NDJSON lines, each a user's or a group's
// action with its original timestamp, logged through the action engine one after another in the
// file's order, exactly as POST /users/{u}/actions logs them. A line the engine refuses (an unknown
// action, a bad timestamp, an unknown field) is counted with its line number and the import goes
// on; a failure of the database ends it, and a run again resumes (every line has an event id).
import { isAppError, type FieldError } from '../../errors.js';
import type { ActionService } from '../actions/service.js';
import { parseImportLine } from './lines.js';

/** Rejected lines listed in a summary (all are counted). */
export const MAX_LISTED_REJECTIONS = 1000;

export interface ImportRejection {
  line: number;
  code: string;
  message: string;
  errors?: FieldError[];
}

export interface ImportSummary {
  /** Lines read, blank lines included. */
  lines: number;
  /** Recorded by this run. */
  recorded: number;
  /** Already recorded (an earlier run, or the same event id earlier in the file): skipped. */
  duplicates: number;
  /** Logged but not recorded (SPEC §5 steps 3 and 4). */
  suppressed: { repeatSuppressed: number; rateLimited: number };
  rejected: number;
  /** The first MAX_LISTED_REJECTIONS rejected lines. */
  rejections: ImportRejection[];
  missionsCompleted: number;
  pointsCredited: number;
}

export interface ImportProgress {
  lines: number;
  summary: ImportSummary;
}

export function emptySummary(): ImportSummary {
  return {
    lines: 0,
    recorded: 0,
    duplicates: 0,
    suppressed: { repeatSuppressed: 0, rateLimited: 0 },
    rejected: 0,
    rejections: [],
    missionsCompleted: 0,
    pointsCredited: 0,
  };
}

export class ImportService {
  constructor(private readonly actions: ActionService) {}

  /**
   * Logs every line of `lines` for the site, in order. `onProgress` is called after each line;
   * `summary` (when given) is the one filled in, so that a caller that stops reading (a body over
   * its limit) still has the figures of what was done.
   */
  async run(
    siteId: string,
    lines: AsyncIterable<string>,
    options: { onProgress?: (progress: ImportProgress) => void; summary?: ImportSummary } = {},
  ): Promise<ImportSummary> {
    const summary = options.summary ?? emptySummary();
    for await (const raw of lines) {
      summary.lines += 1;
      const text = raw.trim();
      if (text !== '') await this.#line(siteId, text, summary);
      options.onProgress?.({ lines: summary.lines, summary });
    }
    return summary;
  }

  async #line(siteId: string, text: string, summary: ImportSummary): Promise<void> {
    const lineNumber = summary.lines;
    try {
      const line = parseImportLine(text, lineNumber);
      const outcome = await this.actions.log(siteId, line.party, line.partyId, line.body);
      if (outcome.duplicate) summary.duplicates += 1;
      else if (outcome.recorded) {
        summary.recorded += 1;
        summary.missionsCompleted += outcome.missionsCompleted.length;
        summary.pointsCredited += outcome.pointsAwarded.reduce((sum, award) => sum + award.credited, 0);
      } else if (outcome.reason === 'rate_limited') summary.suppressed.rateLimited += 1;
      else summary.suppressed.repeatSuppressed += 1;
    } catch (error) {
      // What the engine refuses is the line's fault; anything else (the database) ends the import.
      if (!isAppError(error) || error.status >= 500) throw error;
      summary.rejected += 1;
      if (summary.rejections.length < MAX_LISTED_REJECTIONS) {
        summary.rejections.push({
          line: lineNumber,
          code: error.code,
          message: error.message,
          ...(error.options.errors !== undefined ? { errors: error.options.errors } : {}),
        });
      }
    }
  }
}
