import {
  FILE_NAME_DISPLAY_LENGTH,
  type JobStatus,
  type TimeSeriesUploadResult,
  type UploadResult as ImportAnswer,
} from '@railwatt/contracts';
import type { UploadProgress } from '../../../lib/api/client';

export type { ImportAnswer };
export type { SheetParseResult } from '@railwatt/contracts';

/** Per-file progress states of product.md §4; `waiting` is a file chosen but not yet sent. */
export type UploadFileStatus = 'waiting' | 'progressing' | 'finished' | 'finished_async' | 'failed';

/** One failure of calls.md §3 ("Upload failure structure"), with the sheet it came from. */
export interface UploadFailure {
  errorMessage: string;
  type: string;
  sheetName?: string;
}

/** What an upload function reports for one file. */
export interface UploadOutcome {
  status: 'finished' | 'finished_async' | 'failed';
  failures: UploadFailure[];
  /** A message for the whole file (an HTTP failure rather than a row failure). */
  message?: string;
  /** finished_async: the background jobs importing the stored file (GET /jobs/{id} follows them). */
  jobIds?: string[];
}

/**
 * Sends one file. `onProgress` takes the bytes sent so far, as the API client's upload reports them
 * (lib/api `upload`); loaded === total means every byte is out and the server is working.
 */
export type UploadFn = (file: File, onProgress: (progress: UploadProgress) => void) => Promise<UploadOutcome>;

/** Whole percent of the bytes sent; 100 only when all are out (the bar then waits for the server). */
export function uploadPercent({ loaded, total }: UploadProgress): number {
  if (total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.floor((loaded * 100) / total)));
}

export interface UploadEntry {
  id: string;
  file: File;
  status: UploadFileStatus;
  /** Percent of the file's bytes sent (0..100); at 100 while progressing, the server is processing. */
  progress: number;
  failures: UploadFailure[];
  message?: string;
  jobIds?: string[];
}

export type UploadDialogColor = 'yellow' | 'red' | 'green' | 'blue';

/**
 * What the dialog knows of a followed background job (a finished_async file's import): its status,
 * `undefined` before the first answer, 'unknown' when it cannot be read.
 */
export type FollowedJobStatus = JobStatus | 'unknown' | undefined;

/**
 * The dialog colour (product.md §4): yellow while anything is progressing, red if any failed,
 * green when everything finished, else blue (nothing chosen yet, or files waiting to be sent).
 * A finished_async file is finished only once its followed jobs are: a job still queued or running
 * keeps the dialog yellow, one that ended as failure or dead makes it red (the import refused the
 * file after the upload), success leaves it green. A job that cannot be read holds nothing up.
 */
export function uploadDialogColor(
  statuses: readonly UploadFileStatus[],
  jobs: readonly FollowedJobStatus[] = [],
): UploadDialogColor {
  if (statuses.includes('progressing')) return 'yellow';
  if (jobs.some((s) => s === undefined || s === 'queued' || s === 'running')) return 'yellow';
  if (statuses.includes('failed') || jobs.some((s) => s === 'failure' || s === 'dead')) return 'red';
  if (statuses.length > 0 && statuses.every((s) => s === 'finished' || s === 'finished_async')) return 'green';
  return 'blue';
}

/** Names are displayed cut at 60 characters with an ellipsis (product.md §5). */
export function displayFileName(name: string, max: number = FILE_NAME_DISPLAY_LENGTH): string {
  return name.length > max ? `${name.slice(0, max)}...` : name;
}

/** An upload counts as failed if success is false or any sheet has failures (product.md §5). */
export function outcomeFromImportAnswer(answer: ImportAnswer): UploadOutcome {
  const failures = answer.sheetParseResults.flatMap((sheet) =>
    sheet.failures.map((f) => ({ errorMessage: f.errorMessage, type: f.type, sheetName: sheet.sheetName })),
  );
  const failed = !answer.success || failures.length > 0;
  return { status: failed ? 'failed' : 'finished', failures };
}

/**
 * A time-series upload's answer (contracts timeSeriesUploadResultSchema): failed like any import
 * (success false or a sheet with failures); else `async` means the file is stored and a background
 * job imports it (finished_async, with the jobs to follow), otherwise it was imported at once.
 */
export function outcomeFromTimeSeriesAnswer(answer: TimeSeriesUploadResult): UploadOutcome {
  const outcome = outcomeFromImportAnswer(answer);
  if (outcome.status === 'failed' || !answer.async) return outcome;
  return { ...outcome, status: 'finished_async', jobIds: answer.jobIds ?? [] };
}
