import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenSshServer, type OpenSshServer } from '../../test/sftp-servers.js';
import { requireTool } from '../../test/tools.js';
import { fetchRouteFiles, FileTooLargeError, type IntakeRoute } from './sftp-intake.js';

// Against a real OpenSSH server (Debian's openssh-server) on a local port, as the intake job meets it.
const hasSshd = requireTool('sshd', 'fetching files from OpenSSH');
describe.skipIf(!hasSshd)('SFTP intake: fetching files from an IN route', () => {
  let server: OpenSshServer;
  let route: IntakeRoute;
  beforeAll(async () => {
    server = await startOpenSshServer();
    const inbox = join(server.path, 'in');
    mkdirSync(join(inbox, 'norway'), { recursive: true });
    mkdirSync(join(inbox, 'belgium'), { recursive: true });
    writeFileSync(join(inbox, 'norway', 'cebd-1.xml'), '<CEBDFile/>');
    writeFileSync(join(inbox, 'norway', 'cebd-2.xml'), '<CEBDFile>Ø</CEBDFile>');
    writeFileSync(join(inbox, 'belgium', 'prices.csv'), 'x'.repeat(2_000));
    route = {
      routeId: 'cebd-in',
      hostname: server.hostname,
      port: server.port,
      username: server.username,
      path: inbox,
      backupPath: join(server.path, 'backup'),
      folder: null,
      subFolders: ['norway', 'belgium'],
      credentials: { privateKey: server.key.privateKey, passphrase: '' },
      allowedHosts: undefined,
    };
  });
  afterAll(async () => server?.close());

  it('hands each file to the caller with its area, moves it to the backup path, and leaves too large ones', async () => {
    const seen: [string, string, number, string][] = [];
    const outcome = await fetchRouteFiles(
      route,
      async (file) => void seen.push([file.area, file.fileName, file.size, (await buffer(file.read())).toString()]),
      { maxFileBytes: 1_000 },
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.fetched).toBe(2);
    expect(seen).toEqual([
      ['norway', 'cebd-1.xml', 11, '<CEBDFile/>'],
      ['norway', 'cebd-2.xml', 23, '<CEBDFile>Ø</CEBDFile>'],
    ]);
    expect(outcome.skipped).toEqual([
      { remotePath: join(route.path, 'belgium', 'prices.csv'), reason: 'larger than 1000 bytes' },
    ]);
    expect(readdirSync(join(route.path, 'norway'))).toEqual([]);
    expect(readdirSync(join(route.backupPath!, 'norway')).sort()).toEqual(['cebd-1.xml', 'cebd-2.xml']);
    // Nothing left to fetch: a second run hands over nothing.
    const again = await fetchRouteFiles(route, async () => undefined, { maxFileBytes: 1_000 });
    expect(again.fetched).toBe(0);
  });

  it('leaves a file the caller could not store on the server, to be fetched again', async () => {
    writeFileSync(join(route.path, 'norway', 'cebd-3.xml'), '<CEBDFile/>');
    const outcome = await fetchRouteFiles(
      route,
      async () => {
        throw new Error('database unavailable');
      },
      { maxFileBytes: 10_000 },
    );
    expect(outcome.skipped).toContainEqual({
      remotePath: join(route.path, 'norway', 'cebd-3.xml'),
      reason: 'database unavailable',
    });
    expect(existsSync(join(route.path, 'norway', 'cebd-3.xml'))).toBe(true);
  });

  it('stops reading a file that grows past the limit while read, and leaves it on the server', async () => {
    const growing = { ...route, subFolders: ['sweden'] };
    mkdirSync(join(route.path, 'sweden'), { recursive: true });
    writeFileSync(join(route.path, 'sweden', 'a-first.csv'), 'a;1\n');
    writeFileSync(join(route.path, 'sweden', 'b-growing.csv'), 'b;1\n');
    const received: Record<string, number> = {};
    const outcome = await fetchRouteFiles(
      growing,
      async (file) => {
        // Listed at 4 bytes; by the time it is read, another writer has made it 64 kB.
        if (file.fileName === 'a-first.csv')
          writeFileSync(join(route.path, 'sweden', 'b-growing.csv'), 'b;1\n'.repeat(16_384));
        received[file.fileName] = 0;
        for await (const chunk of file.read()) received[file.fileName]! += chunk.length;
      },
      { maxFileBytes: 10_000 },
    );
    expect(outcome.fetched).toBe(1);
    expect(outcome.skipped).toContainEqual({
      remotePath: join(route.path, 'sweden', 'b-growing.csv'),
      reason: new FileTooLargeError(10_000).message,
    });
    // Stopped at the chunk that crossed the limit: the consumer never got more than the limit.
    expect(received['b-growing.csv']).toBeLessThanOrEqual(10_000);
    expect(readdirSync(join(route.path, 'sweden'))).toContain('b-growing.csv');
    expect(readdirSync(join(route.path, 'sweden'))).not.toContain('a-first.csv');
  });

  it('answers a route it cannot reach with the reason, never a thrown error', async () => {
    const outcome = await fetchRouteFiles({ ...route, credentials: { password: 'wrong' } }, async () => undefined, {
      maxFileBytes: 1_000,
      timeoutMs: 5_000,
    });
    expect(outcome.error).toMatch(/Authentication failed/);
  });
});
