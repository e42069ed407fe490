import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import SftpClient from 'ssh2-sftp-client';
import { classifySftpError, connectSftp, type SftpTarget } from './sftp-connection.js';

/**
 * Automatic intake (issue 8 item 5): fetches the files waiting on an enabled IN route and hands
 * each to the caller (which stores it with a data-log entry and queues its import), then moves it
 * to the route's backup path, or removes it when the route has none, so it is fetched once.
 *
 * Where a file's area comes from: an IN route lists the areas it serves as sub folders (area keys:
 * `norway`, `belgium` ...); files are read from `<path>/<area>/`. A route without sub folders
 * reads `<path>` itself for the area named by its `folder`. A file is moved only after the caller
 * has stored it: a crash in between fetches it again next time rather than losing it (the data log
 * then shows it twice, which a person can see; a lost file nobody would).
 *
 * A file is read as a stream (FetchedFile.read), never whole: the caller stores it part by part in
 * the data log (file-store.ts), so memory holds a chunk and a part, whatever the file's size. Files
 * listed larger than the limit are not read; one that grows past it while being read is stopped
 * (FileTooLargeError) and left in place like them.
 */

export interface IntakeRoute extends SftpTarget {
  routeId: string;
  backupPath: string | null;
  folder: string | null;
  subFolders: string[];
}

export interface FetchedFile {
  routeId: string;
  /** The area key (sub folder or folder) the file was found under. */
  area: string;
  /** Full remote path it was read from. */
  remotePath: string;
  fileName: string;
  /** The size the listing gave (the file may still grow while read; read() stops it at the limit). */
  size: number;
  /**
   * The file's bytes as they arrive from the server, once per file and only while the handler runs.
   * More than maxFileBytes fail the iteration with FileTooLargeError.
   */
  read(): AsyncIterable<Buffer>;
}

/** A file over the limit: listed so, or grown past it while being read. It stays on the server. */
export class FileTooLargeError extends Error {
  constructor(readonly maxFileBytes: number) {
    super(`larger than ${maxFileBytes} bytes`);
  }
}

/** The chunks of `stream`, failing once more than `maxBytes` have arrived (the stream is then destroyed). */
async function* limited(stream: Readable, maxBytes: number): AsyncIterable<Buffer> {
  let total = 0;
  // Iterating a Readable destroys it when the loop ends early (a throw here or in the consumer).
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) throw new FileTooLargeError(maxBytes);
    yield chunk;
  }
}

export interface FetchOutcome {
  fetched: number;
  /** Files left in place (too large, or the caller refused them), with why. */
  skipped: { remotePath: string; reason: string }[];
  /** The route could not be read at all (connection, authentication, path). */
  error?: string;
}

export interface FetchOptions {
  /** Only these areas' folders (import-prices fetches the caller's area only). Default: every folder. */
  areas?: readonly string[];
  /** Largest file fetched, in bytes; larger ones are left and reported. */
  maxFileBytes: number;
  /** Files per run at most (the rest wait for the next run). */
  maxFiles?: number;
  timeoutMs?: number;
}

export async function fetchRouteFiles(
  route: IntakeRoute,
  handle: (file: FetchedFile) => Promise<void>,
  options: FetchOptions,
): Promise<FetchOutcome> {
  const quiet = () => undefined;
  const client = new SftpClient(`railwatt-intake-${route.routeId}`, { error: quiet, end: quiet, close: quiet });
  const outcome: FetchOutcome = { fetched: 0, skipped: [] };
  const maxFiles = options.maxFiles ?? 100;
  const folders: { area: string; dir: string }[] = (
    route.subFolders.length > 0
      ? route.subFolders.map((sub) => ({ area: sub, dir: posix.join(route.path, sub) }))
      : route.folder
        ? [{ area: route.folder, dir: route.path }]
        : []
  ).filter((f) => !options.areas || options.areas.includes(f.area.toLowerCase()));
  try {
    await connectSftp(client, route, options.timeoutMs ?? 10_000);
    for (const { area, dir } of folders) {
      if ((await client.exists(dir)) !== 'd') {
        outcome.skipped.push({ remotePath: dir, reason: 'not a directory on the server' });
        continue;
      }
      const entries = (await client.list(dir))
        .filter((e) => e.type === '-')
        .sort((a, b) => a.name.localeCompare(b.name));
      for (const entry of entries) {
        if (outcome.fetched >= maxFiles) return outcome;
        const remotePath = posix.join(dir, entry.name);
        if (entry.size > options.maxFileBytes) {
          outcome.skipped.push({ remotePath, reason: new FileTooLargeError(options.maxFileBytes).message });
          continue;
        }
        let stream: Readable | undefined;
        let reading = false;
        const read = () => {
          if (reading) throw new Error(`${remotePath} is read once`);
          reading = true;
          // Opened when the consumer asks for the first chunk, so an unread file holds no remote handle.
          return (async function* () {
            stream = client.createReadStream(remotePath) as Readable;
            // Errors reach the consumer through the iteration; this keeps one emitted between the
            // open and the first read from being an uncaught 'error' event.
            stream.on('error', () => undefined);
            yield* limited(stream, options.maxFileBytes);
          })();
        };
        try {
          await handle({ routeId: route.routeId, area, remotePath, fileName: entry.name, size: entry.size, read });
        } catch (error) {
          outcome.skipped.push({ remotePath, reason: error instanceof Error ? error.message : String(error) });
          continue;
        } finally {
          // A handler that refused the file unread (or stopped half-way) leaves no open remote handle.
          if (stream && !stream.destroyed) stream.destroy();
        }
        if (route.backupPath) {
          const backupDir = route.subFolders.length > 0 ? posix.join(route.backupPath, area) : route.backupPath;
          if ((await client.exists(backupDir)) !== 'd') await client.mkdir(backupDir, true);
          let target = posix.join(backupDir, entry.name);
          // A file of the same name fetched earlier stays; this one gets a time stamp.
          if (await client.exists(target)) target = `${target}.${new Date().toISOString().replace(/[:.]/g, '-')}`;
          await client.rename(remotePath, target);
        } else {
          await client.delete(remotePath);
        }
        outcome.fetched += 1;
      }
    }
    return outcome;
  } catch (error) {
    return { ...outcome, error: classifySftpError(error, route).message };
  } finally {
    await Promise.race([client.end().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
  }
}
