import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeTestCertificate,
  startFtpServer,
  type TestCertificate,
  type TestFtpServer,
} from '../../test/delivery-peers.js';
import { freePort } from '../../test/sftp-servers.js';
import { requireTool } from '../../test/tools.js';
import { parseAllowedHosts } from '../interface/allowed-hosts.js';
import { deliverByFtp, type FtpTarget } from './ftp.js';

/**
 * FTP and FTPS against ftp-srv on a local port: the bytes that land in the server's directory are
 * the file's, under its name, in a directory made when missing; nothing is left under the
 * temporary name. FTPS checks the server's certificate (trusted only when handed over as `ca`).
 */

const LOCAL = parseAllowedHosts('127.0.0.1');
const bytes = randomBytes(200_000);
const file = { fileName: 'supplier-2026-10.csv', contentType: 'text/csv', content: bytes };

describe('FTP', () => {
  let server: TestFtpServer;
  beforeAll(async () => {
    server = await startFtpServer({ user: 'reports', pass: 's3cret' });
  });
  afterAll(async () => server?.close());
  const target = (over: Partial<FtpTarget> = {}): FtpTarget => ({
    protocol: 'FTP',
    host: '127.0.0.1',
    port: server.port,
    remoteDirectory: '/out/2026/10',
    username: 'reports',
    password: 's3cret',
    ...over,
  });

  it('uploads the exact bytes into a directory it makes, under the file name', async () => {
    const outcome = await deliverByFtp(target(), file, { allowedHosts: LOCAL });
    expect(outcome).toEqual({
      ok: true,
      destinationType: 'ftp',
      location: `ftp://127.0.0.1:${server.port}/out/2026/10/supplier-2026-10.csv`,
      attempts: 1,
    });
    expect(readFileSync(join(server.root, 'out/2026/10/supplier-2026-10.csv')).equals(bytes)).toBe(true);
    expect(readdirSync(join(server.root, 'out/2026/10'))).toEqual(['supplier-2026-10.csv']);
  });

  it('replaces an earlier file of the same name, streaming the new one', async () => {
    mkdirSync(join(server.root, 'again'), { recursive: true });
    writeFileSync(join(server.root, 'again/supplier-2026-10.csv'), 'the earlier delivery');
    const outcome = await deliverByFtp(
      target({ remoteDirectory: '/again' }),
      { ...file, content: () => Readable.from([bytes.subarray(0, 7), bytes.subarray(7)]) },
      { allowedHosts: LOCAL },
    );
    expect(outcome).toMatchObject({ ok: true });
    expect(readFileSync(join(server.root, 'again/supplier-2026-10.csv')).equals(bytes)).toBe(true);
    expect(readdirSync(join(server.root, 'again'))).toEqual(['supplier-2026-10.csv']);
  });

  it('says authentication failed for a wrong password', async () => {
    const outcome = await deliverByFtp(target({ password: 'wrong' }), file, { allowedHosts: LOCAL });
    expect(outcome).toMatchObject({ ok: false, destinationType: 'ftp', attempts: 1 });
    expect(outcome.ok === false && outcome.reason).toMatch(
      new RegExp(
        `^Authentication failed at 127\\.0\\.0\\.1:${server.port}: check the username and password \\(the server said 530 `,
      ),
    );
  });

  it('says the host is unreachable when nothing listens', async () => {
    const port = await freePort();
    expect(await deliverByFtp(target({ port }), file, { allowedHosts: LOCAL })).toEqual({
      ok: false,
      destinationType: 'ftp',
      reason: `Host 127.0.0.1:${port} unreachable: nothing accepts connections on the port`,
      attempts: 1,
    });
  });

  it('connects to no host the allowed hosts do not name', async () => {
    const logins = server.logins;
    const outcome = await deliverByFtp(target(), file, { allowedHosts: parseAllowedHosts('ftp.example.org') });
    expect(outcome).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^The host 127\.0\.0\.1:\d+ is not among/),
    });
    expect(server.logins).toBe(logins);
  });

  it('says the server offers no TLS when FTPS is asked of a plain FTP server', async () => {
    const outcome = await deliverByFtp(target({ protocol: 'FTPS' }), file, { allowedHosts: LOCAL });
    expect(outcome.ok === false && outcome.reason).toMatch(/does not offer TLS \(FTPS\); nothing was sent/);
  });
});

describe.skipIf(!requireTool('openssl', 'the FTPS delivery'))('FTPS (explicit TLS)', () => {
  let certificate: TestCertificate;
  let server: TestFtpServer;
  beforeAll(async () => {
    certificate = makeTestCertificate();
    server = await startFtpServer({ user: 'reports', pass: 's3cret', tls: certificate });
  });
  afterAll(async () => server?.close());
  const target = (): FtpTarget => ({
    protocol: 'FTPS',
    host: '127.0.0.1',
    port: server.port,
    remoteDirectory: '/secure',
    username: 'reports',
    password: 's3cret',
  });

  it('uploads the exact bytes over TLS when the certificate is trusted', async () => {
    const outcome = await deliverByFtp(target(), file, { allowedHosts: LOCAL, ca: certificate.cert });
    expect(outcome).toEqual({
      ok: true,
      destinationType: 'ftp',
      location: `ftps://127.0.0.1:${server.port}/secure/supplier-2026-10.csv`,
      attempts: 1,
    });
    expect(readFileSync(join(server.root, 'secure/supplier-2026-10.csv')).equals(bytes)).toBe(true);
  });

  it('refuses a certificate it was not given to trust, before signing in', async () => {
    const logins = server.logins;
    const outcome = await deliverByFtp(target(), file, { allowedHosts: LOCAL });
    expect(outcome.ok === false && outcome.reason).toMatch(
      new RegExp(`^The certificate of 127\\.0\\.0\\.1:${server.port} is not trusted \\(self-signed certificate\\)`),
    );
    expect(server.logins).toBe(logins);
  });
});
