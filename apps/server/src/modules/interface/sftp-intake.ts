import { posix } from 'node:path';
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
  bytes: Buffer;
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
          outcome.skipped.push({ remotePath, reason: `larger than ${options.maxFileBytes} bytes` });
          continue;
        }
        const bytes = (await client.get(remotePath)) as Buffer;
        try {
          await handle({ routeId: route.routeId, area, remotePath, fileName: entry.name, bytes });
        } catch (error) {
          outcome.skipped.push({ remotePath, reason: error instanceof Error ? error.message : String(error) });
          continue;
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
