import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import SftpClient from 'ssh2-sftp-client';
import { classifySftpError, connectSftp, type SftpTarget } from './sftp-connection.js';

/**
 * Delivery of files to an OUT route (metered-energy-aggregation's exports): one connection per
 * route, each file written under a temporary name and renamed into place, so a receiver polling the
 * folder never reads half a file. Folders are made as needed. Like the connection test, every
 * failure is an answer (per file, with the reason), never a thrown error; a route that cannot be
 * reached fails every file with the same reason.
 */

export interface UploadFile {
  /** Directory on the server (absolute), made when missing. */
  dir: string;
  fileName: string;
  /** The bytes, or a stream of them (a report delivered without being held whole; read once). */
  bytes: Buffer | Readable;
}

export type UploadOutcome = { ok: true; remotePath: string } | { ok: false; remotePath: string; error: string };

/** How long connecting may take; the transfers themselves have no limit beyond the job's. */
export const SFTP_UPLOAD_CONNECT_TIMEOUT_MS = 15_000;

export async function uploadFiles(
  target: Omit<SftpTarget, 'path'> & { routeId: string },
  files: readonly UploadFile[],
  timeoutMs: number = SFTP_UPLOAD_CONNECT_TIMEOUT_MS,
): Promise<UploadOutcome[]> {
  const quiet = () => undefined;
  const client = new SftpClient(`railwatt-upload-${target.routeId}`, { error: quiet, end: quiet, close: quiet });
  const pathOf = (file: UploadFile) => posix.join(file.dir, file.fileName);
  try {
    await connectSftp(client, target, timeoutMs);
  } catch (error) {
    const { message } = classifySftpError(error, { ...target, path: files[0]?.dir ?? '/' });
    await client.end().catch(() => undefined);
    return files.map((file) => ({ ok: false, remotePath: pathOf(file), error: message }));
  }
  const outcomes: UploadOutcome[] = [];
  try {
    for (const file of files) {
      const remotePath = pathOf(file);
      const partial = `${remotePath}.part`;
      try {
        if ((await client.exists(file.dir)) !== 'd') await client.mkdir(file.dir, true);
        await client.put(file.bytes, partial);
        // A file of the same name (an earlier delivery of the same day and aggregation) is replaced.
        if (await client.exists(remotePath)) await client.delete(remotePath);
        await client.rename(partial, remotePath);
        outcomes.push({ ok: true, remotePath });
      } catch (error) {
        outcomes.push({
          ok: false,
          remotePath,
          error: classifySftpError(error, { ...target, path: file.dir }).message,
        });
      }
    }
    return outcomes;
  } finally {
    await Promise.race([client.end().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
  }
}
