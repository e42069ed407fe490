import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startOpenSshServer, type OpenSshServer } from '../../test/sftp-servers.js';
import { requireTool } from '../../test/tools.js';
import { parseAllowedHosts } from '../interface/allowed-hosts.js';
import { deliverBySftp, type SftpDeliveryTarget } from './sftp.js';

/**
 * SFTP through the interface connection path, against the OpenSSH server the interface tests start
 * (test/sftp-servers.ts): the bytes that land are the file's, in a directory made when missing; the
 * host key met is handed over to be pinned, and a server presenting another key gets nothing.
 * Password sign-in needs the throwaway system account the fixture makes when the tests run as root
 * (CI does); the key sign-in of the current user runs everywhere.
 */

const LOCAL = parseAllowedHosts('127.0.0.1');
const bytes = randomBytes(300_000);
const file = { fileName: 'gridarea-settlement.xml', contentType: 'application/xml', content: bytes };
const OTHER_KEY = `SHA256:${'A'.repeat(43)}`;

describe.skipIf(!requireTool('sshd', 'the SFTP delivery to OpenSSH'))('SFTP to OpenSSH', () => {
  let server: OpenSshServer;
  /** A folder every account may write (the data directory is the owner's). */
  let drop: string;
  beforeAll(async () => {
    server = await startOpenSshServer();
    drop = join(server.path, 'drop');
    mkdirSync(drop);
    chmodSync(drop, 0o777);
  });
  afterAll(async () => server?.close());
  const withKey = (over: Partial<SftpDeliveryTarget> = {}): SftpDeliveryTarget => ({
    host: '127.0.0.1',
    port: server.port,
    remoteDirectory: join(drop, 'key', '2026-10'),
    username: server.username,
    credentials: { privateKey: server.key.privateKey, passphrase: '' },
    hostKeyFingerprint: server.hostKeyFingerprint,
    ...over,
  });

  it('uploads the exact bytes into a directory it makes, with a key, at the pinned host key', async () => {
    const outcome = await deliverBySftp(withKey(), file, { allowedHosts: LOCAL });
    const remotePath = join(drop, 'key', '2026-10', 'gridarea-settlement.xml');
    expect(outcome).toEqual({
      ok: true,
      destinationType: 'sftp',
      location: `sftp://127.0.0.1:${server.port}${remotePath}`,
      attempts: 1,
    });
    expect(readFileSync(remotePath).equals(bytes)).toBe(true);
    expect(readdirSync(join(drop, 'key', '2026-10'))).toEqual(['gridarea-settlement.xml']);
  });

  it.skipIf(!process.getuid || process.getuid() !== 0)(
    'signs in with a password (as schedules store), streams the file, and hands over the host key met to be pinned',
    async () => {
      const account = server.passwordUser!;
      const pinned: string[] = [];
      const outcome = await deliverBySftp(
        {
          host: '127.0.0.1',
          port: server.port,
          remoteDirectory: join(drop, 'password'),
          username: account.username,
          credentials: { password: account.password },
          hostKeyFingerprint: null,
          onNewHostKey: async (fingerprint) => pinned.push(fingerprint),
        },
        { ...file, content: () => Readable.from([bytes.subarray(0, 5), bytes.subarray(5)]) },
        { allowedHosts: LOCAL },
      );
      expect(outcome).toMatchObject({ ok: true, destinationType: 'sftp' });
      expect(readFileSync(join(drop, 'password', 'gridarea-settlement.xml')).equals(bytes)).toBe(true);
      expect(pinned).toEqual([server.hostKeyFingerprint]);
    },
  );

  it.skipIf(!process.getuid || process.getuid() !== 0)('says authentication failed for a wrong password', async () => {
    const outcome = await deliverBySftp(
      {
        ...withKey({ remoteDirectory: join(drop, 'never') }),
        username: server.passwordUser!.username,
        credentials: { password: 'not the password' },
      },
      file,
      { allowedHosts: LOCAL },
    );
    expect(outcome).toEqual({
      ok: false,
      destinationType: 'sftp',
      reason: `Authentication failed at 127.0.0.1:${server.port}: check the username and credentials`,
      attempts: 1,
    });
  });

  it('sends nothing to a server presenting another host key than the pinned one', async () => {
    const outcome = await deliverBySftp(
      withKey({ remoteDirectory: join(drop, 'mismatch'), hostKeyFingerprint: OTHER_KEY }),
      file,
      { allowedHosts: LOCAL },
    );
    expect(outcome.ok === false && outcome.reason).toMatch(
      new RegExp(`^The server at 127\\.0\\.0\\.1:${server.port} presented the host key SHA256:`),
    );
    expect(readdirSync(drop)).not.toContain('mismatch');
  });

  it('connects to no host the allowed hosts do not name', async () => {
    const outcome = await deliverBySftp(withKey({ remoteDirectory: join(drop, 'refused') }), file, {
      allowedHosts: parseAllowedHosts('sftp.example.org'),
    });
    expect(outcome.ok === false && outcome.reason).toMatch(
      /^The host 127\.0\.0\.1:\d+ is not among the hosts this platform allows \(INTERFACE_ALLOWED_HOSTS\)/,
    );
    expect(readdirSync(drop)).not.toContain('refused');
  });

  it('says the host is unreachable when nothing listens, and closes the stream it opened', async () => {
    const port = await freePort();
    let stream: Readable | undefined;
    const outcome = await deliverBySftp(
      withKey({ port }),
      { ...file, content: () => (stream = Readable.from([bytes])) },
      { allowedHosts: LOCAL },
    );
    expect(outcome).toMatchObject({
      ok: false,
      reason: expect.stringMatching(new RegExp(`^Host 127\\.0\\.0\\.1:${port} unreachable`)),
    });
    expect(stream?.destroyed).toBe(true);
  });
});
