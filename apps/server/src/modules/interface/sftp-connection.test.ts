import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  generateKeyPair,
  freePort,
  startOpenSshServer,
  startSsh2SftpServer,
  type OpenSshServer,
  type TestSftpServer,
} from '../../test/sftp-servers.js';
import { requireTool } from '../../test/tools.js';
import { HOST_KEY_FINGERPRINT } from '@railwatt/contracts';
import { parseAllowedHosts } from './allowed-hosts.js';
import { testSftpConnection } from './sftp-connection.js';

/**
 * The connection test against real SFTP servers: the ssh2 package's server (password and key) and
 * the system's OpenSSH server (key, with and without passphrase). Never a thrown error: every
 * failure is an answer with its outcome.
 */
describe('test connection against the ssh2 SFTP server', () => {
  const key = generateKeyPair();
  const protectedKey = generateKeyPair('open sesame');
  let server: TestSftpServer;
  let keyServer: TestSftpServer;
  beforeAll(async () => {
    server = await startSsh2SftpServer({ username: 'railwatt', password: 's3cret', publicKey: key.publicKey });
    keyServer = await startSsh2SftpServer({ username: 'railwatt', publicKey: protectedKey.publicKey });
  });
  afterAll(async () => {
    await server?.close();
    await keyServer?.close();
  });
  const target = (over: Partial<Parameters<typeof testSftpConnection>[0]> = {}) => ({
    hostname: server.hostname,
    port: server.port,
    username: 'railwatt',
    path: server.path,
    credentials: { password: 's3cret' },
    allowedHosts: undefined,
    ...over,
  });

  it('connects with a password and lists the path', async () => {
    const result = await testSftpConnection(target());
    expect(result).toMatchObject({ ok: true, outcome: 'ok' });
    expect(result.entries).toEqual(['archive/', 'cebd-001.xml', 'cebd-002.xml']);
  });

  it('connects with a private key, and with a passphrase-protected one', async () => {
    expect(
      await testSftpConnection(target({ credentials: { privateKey: key.privateKey, passphrase: '' } })),
    ).toMatchObject({
      ok: true,
    });
    const withPassphrase = await testSftpConnection(
      target({ port: keyServer.port, credentials: { privateKey: protectedKey.privateKey, passphrase: 'open sesame' } }),
    );
    expect(withPassphrase).toMatchObject({ ok: true, outcome: 'ok' });
    const wrongPassphrase = await testSftpConnection(
      target({ port: keyServer.port, credentials: { privateKey: protectedKey.privateKey, passphrase: 'wrong' } }),
    );
    expect(wrongPassphrase).toMatchObject({ ok: false, outcome: 'auth_failed' });
  });

  it('says authentication failed for a wrong password or a key it does not know', async () => {
    const wrong = await testSftpConnection(target({ credentials: { password: 'nope' } }));
    expect(wrong).toMatchObject({ ok: false, outcome: 'auth_failed' });
    expect(wrong.message).toMatch(/^Authentication failed at 127\.0\.0\.1:\d+/);
    const stranger = generateKeyPair();
    expect(
      await testSftpConnection(target({ credentials: { privateKey: stranger.privateKey, passphrase: '' } })),
    ).toMatchObject({ ok: false, outcome: 'auth_failed' });
  });

  it('says the path is missing', async () => {
    const result = await testSftpConnection(target({ path: '/nowhere' }));
    expect(result).toEqual({
      ok: false,
      outcome: 'path_missing',
      message: `The path /nowhere does not exist on 127.0.0.1:${server.port}`,
      hostKeyFingerprint: expect.stringMatching(/^SHA256:[A-Za-z0-9+/]{43}$/),
    });
  });

  it('gives one answer for a closed port, a silent one and one that is not SSH (no port scanner)', async () => {
    const { createServer } = await import('node:net');
    const listen = async (onSocket: (socket: import('node:net').Socket) => void) => {
      const tcp = createServer(onSocket);
      await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
      return { tcp, port: (tcp.address() as { port: number }).port };
    };
    // Accepts TCP and never says a word; answers like a web server; resets the connection.
    const silent = await listen(() => undefined);
    const http = await listen((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    const reset = await listen((socket) => socket.resetAndDestroy());
    const ports = { closed: await freePort(), silent: silent.port, http: http.port, reset: reset.port };
    try {
      const started = Date.now();
      const answers = await Promise.all(
        Object.entries(ports).map(async ([kind, port]) => [kind, await testSftpConnection(target({ port }), 1500)]),
      );
      expect(Date.now() - started).toBeLessThan(5000);
      for (const [kind, answer] of answers) {
        const port = ports[kind as keyof typeof ports];
        // The same outcome and the same words but for the port: nothing tells the kinds apart.
        expect({ kind, answer }).toEqual({
          kind,
          answer: {
            ok: false,
            outcome: 'host_unreachable',
            message:
              `Host 127.0.0.1:${port} unreachable: no SSH server answered there (the host is down or not ` +
              `reachable from here, nothing listens on the port, or what listens is not SSH)`,
          },
        });
      }
    } finally {
      for (const server of [silent, http, reset]) server.tcp.close();
    }
    // An unknown name is told apart (an administrator's typo): NXDOMAIN where DNS answers; a machine
    // without DNS may only time out, which is then the answer above.
    const unknown = await testSftpConnection(target({ hostname: 'no-such-host.invalid' }), 3000);
    expect(unknown).toMatchObject({ ok: false, outcome: 'host_unreachable' });
    expect(unknown.message).toMatch(/^Host no-such-host\.invalid:\d+ unreachable: /);
  });

  it('connects to nothing outside INTERFACE_ALLOWED_HOSTS, and to a host inside it', async () => {
    const { createServer } = await import('node:net');
    let connections = 0;
    const counter = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => counter.listen(0, '127.0.0.1', r));
    const port = (counter.address() as { port: number }).port;
    try {
      const elsewhere = parseAllowedHosts('*.example.org, 10.0.0.0/8');
      expect(await testSftpConnection(target({ port, allowedHosts: elsewhere }))).toEqual({
        ok: false,
        outcome: 'host_not_allowed',
        message: expect.stringMatching(/^The host 127\.0\.0\.1:\d+ is not among the hosts this platform allows/),
      });
      expect(connections).toBe(0);
      // The route's own server, allowed by its address range: the test goes through.
      const allowed = await testSftpConnection(target({ allowedHosts: parseAllowedHosts('127.0.0.0/8') }));
      expect(allowed).toMatchObject({ ok: true, outcome: 'ok' });
    } finally {
      counter.close();
    }
  });
});

// Skipped without OpenSSH, except on CI (CI=true), where a missing sshd fails the file.
const hasSshd = requireTool('sshd', 'the connection test against OpenSSH');
describe.skipIf(!hasSshd)('test connection against a real OpenSSH server', () => {
  let sshd: OpenSshServer;
  beforeAll(async () => {
    sshd = await startOpenSshServer();
  }, 30_000);
  afterAll(async () => sshd?.close());
  const target = (credentials: Parameters<typeof testSftpConnection>[0]['credentials'], path = sshd.path) => ({
    hostname: sshd.hostname,
    port: sshd.port,
    username: sshd.username,
    path,
    credentials,
    allowedHosts: undefined,
  });

  it('connects with the authorized key and lists the path', async () => {
    const result = await testSftpConnection(target({ privateKey: sshd.key.privateKey, passphrase: '' }));
    expect(result).toMatchObject({ ok: true, outcome: 'ok', entries: ['archive/', 'cebd-001.xml', 'cebd-002.xml'] });
  });

  it('connects with the passphrase-protected key and refuses a wrong passphrase', async () => {
    const { privateKey, passphrase } = sshd.protectedKey;
    expect(await testSftpConnection(target({ privateKey, passphrase }))).toMatchObject({ ok: true });
    expect(await testSftpConnection(target({ privateKey, passphrase: 'wrong' }))).toMatchObject({
      ok: false,
      outcome: 'auth_failed',
    });
  });

  it('connects with a password to an account that has one (tests run as root; skipped otherwise)', async (ctx) => {
    if (!sshd.passwordUser) ctx.skip();
    const { username, password } = sshd.passwordUser!;
    const ok = await testSftpConnection({ ...target({ password }), username });
    expect(ok).toMatchObject({ ok: true, outcome: 'ok' });
    const wrong = await testSftpConnection({ ...target({ password: `${password}x` }), username });
    expect(wrong).toMatchObject({ ok: false, outcome: 'auth_failed' });
  });

  it('refuses a key it does not know and a password (sshd here takes keys only)', async () => {
    const stranger = generateKeyPair();
    expect(await testSftpConnection(target({ privateKey: stranger.privateKey, passphrase: '' }))).toMatchObject({
      ok: false,
      outcome: 'auth_failed',
    });
    expect(await testSftpConnection(target({ password: 'anything' }))).toMatchObject({
      ok: false,
      outcome: 'auth_failed',
    });
  });

  it('says the path is missing', async () => {
    const result = await testSftpConnection(
      target({ privateKey: sshd.key.privateKey, passphrase: '' }, '/no/such/dir'),
    );
    expect(result).toMatchObject({ ok: false, outcome: 'path_missing' });
  });

  it('names the host key OpenSSH prints for the server, and keeps to the pinned one', async () => {
    const credentials = { privateKey: sshd.key.privateKey, passphrase: '' };
    const met: string[] = [];
    const onNewHostKey = async (fingerprint: string) => void met.push(fingerprint);
    // No pin yet: the key is accepted, named, and handed over to be pinned.
    const first = await testSftpConnection({ ...target(credentials), onNewHostKey });
    expect(first).toMatchObject({ ok: true, hostKeyFingerprint: sshd.hostKeyFingerprint });
    expect(sshd.hostKeyFingerprint).toMatch(HOST_KEY_FINGERPRINT);
    expect(met).toEqual([sshd.hostKeyFingerprint]);
    // Pinned: the same key passes and nothing is pinned again.
    const pinned = await testSftpConnection({
      ...target(credentials),
      hostKeyFingerprint: sshd.hostKeyFingerprint,
      onNewHostKey,
    });
    expect(pinned).toMatchObject({ ok: true, outcome: 'ok' });
    expect(met).toHaveLength(1);
    // Another pin: refused, before authentication (a key sshd would refuse still reads as a host
    // key mismatch, not as an authentication failure), naming both keys.
    const other = `SHA256:${'x'.repeat(43)}`;
    const stranger = generateKeyPair();
    const refused = await testSftpConnection({
      ...target({ privateKey: stranger.privateKey, passphrase: '' }),
      hostKeyFingerprint: other,
      onNewHostKey,
    });
    expect(refused).toMatchObject({
      ok: false,
      outcome: 'host_key_mismatch',
      hostKeyFingerprint: sshd.hostKeyFingerprint,
    });
    expect(refused.message).toBe(
      `The server at ${sshd.hostname}:${sshd.port} presented the host key ${sshd.hostKeyFingerprint}, not the route's ${other}: ` +
        'it may have been replaced, or another machine answers in its place. Nothing was sent. Check the key with the ' +
        "server's administrator; if the new key is right, enter it (or clear the host key) on the route.",
    );
    expect(met).toHaveLength(1);
  });
});
