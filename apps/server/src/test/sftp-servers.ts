import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join, posix } from 'node:path';
import { Server, utils, type Connection } from 'ssh2';
import { TOOLS } from './tools.js';

/**
 * SFTP servers for tests of the interface connection test: (a) the ssh2 package's Server in this
 * process (password and key auth, an SFTP subsystem serving a temporary directory), and (b) a real
 * OpenSSH server (/usr/sbin/sshd) on a free local port with its own host key, configuration and
 * authorized key in a temporary directory, for the current user with key auth. Password auth is
 * tested against the ssh2 server only: sshd checks passwords against the system's accounts, and
 * the tests do not touch those.
 */

export const SSHD_PATH = '/usr/sbin/sshd';
/** Whether OpenSSH is installed; tests ask `requireTool('sshd', ...)` (test/tools.ts), which decides skip or fail. */
export const hasSshd = (): boolean => TOOLS.sshd.present();

export interface TestSftpServer {
  hostname: string;
  port: number;
  username: string;
  /** A directory on the server with a few files (absolute, as the server names it). */
  path: string;
  close(): Promise<void>;
}

export interface KeyPair {
  privateKey: string;
  publicKey: string;
}

/** An ed25519 key pair in OpenSSH format (encrypted with `passphrase` when given). */
export function generateKeyPair(passphrase?: string): KeyPair {
  // ssh2 writes an ed25519 public key that starts with a zero byte one byte short (about 1 key in
  // 200), and then cannot read its own key back: such a pair is drawn again, so tests do not flake.
  for (;;) {
    const pair = passphrase
      ? utils.generateKeyPairSync('ed25519', { passphrase, cipher: 'aes256-ctr', rounds: 16 })
      : utils.generateKeyPairSync('ed25519');
    if (!(utils.parseKey(pair.private, passphrase) instanceof Error)) {
      return { privateKey: pair.private, publicKey: pair.public };
    }
  }
}

/** A free TCP port on 127.0.0.1 (closed again; the caller binds it next). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function fillDataDirectory(root: string): string {
  const data = join(root, 'data');
  mkdirSync(join(data, 'archive'), { recursive: true });
  writeFileSync(join(data, 'cebd-001.xml'), '<cebd/>');
  writeFileSync(join(data, 'cebd-002.xml'), '<cebd/>');
  return data;
}

// --- (a) ssh2 in-process server -------------------------------------------------------------------

const { STATUS_CODE } = utils.sftp;

function attrsOf(path: string) {
  const s = statSync(path);
  return {
    mode: s.mode,
    uid: 0,
    gid: 0,
    size: s.size,
    atime: Math.floor(s.atimeMs / 1000),
    mtime: Math.floor(s.mtimeMs / 1000),
  };
}

/** The SFTP subsystem over `root`: enough for stat, realpath and listing a directory. */
function serveSftp(client: Connection, root: string) {
  const local = (remote: string) => join(root, posix.normalize(`/${remote}`));
  client.on('session', (acceptSession) => {
    const session = acceptSession();
    session.on('sftp', (acceptSftp) => {
      const sftp = acceptSftp();
      const dirs = new Map<string, { path: string; sent: boolean }>();
      let nextHandle = 0;
      const stat = (reqid: number, remote: string) => {
        const path = local(remote);
        if (!existsSync(path)) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
        return sftp.attrs(reqid, attrsOf(path));
      };
      sftp.on('STAT', stat);
      sftp.on('LSTAT', stat);
      sftp.on('REALPATH', (reqid, remote) => {
        const name = posix.normalize(`/${remote === '.' ? '' : remote}`);
        sftp.name(reqid, [{ filename: name, longname: name, attrs: attrsOf(root) }]);
      });
      sftp.on('OPENDIR', (reqid, remote) => {
        const path = local(remote);
        if (!existsSync(path) || !statSync(path).isDirectory()) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
        const handle = Buffer.from(String(nextHandle++));
        dirs.set(handle.toString(), { path, sent: false });
        return sftp.handle(reqid, handle);
      });
      sftp.on('READDIR', (reqid, handle) => {
        const dir = dirs.get(handle.toString());
        if (!dir) return sftp.status(reqid, STATUS_CODE.FAILURE);
        if (dir.sent) return sftp.status(reqid, STATUS_CODE.EOF);
        dir.sent = true;
        return sftp.name(
          reqid,
          readdirSync(dir.path).map((name) => {
            const isDir = statSync(join(dir.path, name)).isDirectory();
            return {
              filename: name,
              longname: `${isDir ? 'd' : '-'}rw-r--r-- 1 test test 0 Jan 1 00:00 ${name}`,
              attrs: attrsOf(join(dir.path, name)),
            };
          }),
        );
      });
      sftp.on('CLOSE', (reqid, handle) => {
        dirs.delete(handle.toString());
        sftp.status(reqid, STATUS_CODE.OK);
      });
    });
  });
}

/** The ssh2 package's SFTP server on a free local port: `password` and/or `publicKey` admit `username`. */
export async function startSsh2SftpServer(options: {
  username: string;
  password?: string;
  publicKey?: string;
}): Promise<TestSftpServer> {
  const root = mkdtempSync(join(tmpdir(), 'railwatt-ssh2-'));
  fillDataDirectory(root);
  const hostKey = generateKeyPair().privateKey;
  const allowedKey = options.publicKey ? utils.parseKey(options.publicKey) : undefined;
  if (allowedKey instanceof Error) throw allowedKey;
  const server = new Server({ hostKeys: [hostKey] }, (client) => {
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => {
      if (ctx.username !== options.username) return ctx.reject();
      if (ctx.method === 'password' && options.password !== undefined && ctx.password === options.password) {
        return ctx.accept();
      }
      if (ctx.method === 'publickey' && allowedKey) {
        const sameKey = ctx.key.algo === allowedKey.type && ctx.key.data.equals(allowedKey.getPublicSSH());
        if (!sameKey) return ctx.reject();
        // Without a signature the client only asks whether the key would do.
        if (!ctx.signature) return ctx.accept();
        if (allowedKey.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) === true) return ctx.accept();
      }
      return ctx.reject(['password', 'publickey']);
    });
    client.on('ready', () => serveSftp(client, root));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    hostname: '127.0.0.1',
    port: typeof address === 'object' && address ? address.port : 0,
    username: options.username,
    path: '/data',
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

// --- (b) a real OpenSSH server ---------------------------------------------------------------------

async function waitForPort(port: number, process: ChildProcess, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (process.exitCode !== null) throw new Error(`sshd exited with ${process.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sshd did not listen on ${port} within ${timeoutMs} ms`);
}

export interface OpenSshServer extends TestSftpServer {
  /** The key pair sshd admits for `username` (unencrypted), and one protected by `passphrase`. */
  key: KeyPair;
  protectedKey: KeyPair & { passphrase: string };
  /**
   * A system account that signs in with a password (sshd checks /etc/shadow itself, no PAM). Made
   * for the run and removed by close(); only when the tests run as root (CI does), else undefined.
   */
  passwordUser: { username: string; password: string } | undefined;
  /** The server's host key as `ssh-keygen -lf` prints it (SHA256:...): what a route pins. */
  hostKeyFingerprint: string;
}

/** A throwaway account with a password and no shell, for sshd's password authentication (root only). */
function createPasswordUser(): { username: string; password: string; remove: () => void } | undefined {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/sbin/useradd')) return undefined;
  const username = `rwsftp${randomBytes(3).toString('hex')}`;
  const password = randomBytes(12).toString('base64url');
  const made = spawnSync('/usr/sbin/useradd', [
    '--system',
    '--no-create-home',
    '--shell',
    '/usr/sbin/nologin',
    username,
  ]);
  if (made.status !== 0) return undefined;
  const set = spawnSync('/usr/sbin/chpasswd', [], { input: `${username}:${password}\n` });
  const remove = () => void spawnSync('/usr/sbin/userdel', [username]);
  if (set.status !== 0) {
    remove();
    return undefined;
  }
  return { username, password, remove };
}

/**
 * /usr/sbin/sshd on a free port of 127.0.0.1, everything it reads in a temporary directory: a host
 * key made by ssh-keygen, sshd_config (no PAM, key auth only, StrictModes no, internal-sftp), and
 * authorized_keys for the current user. Run as root, sshd needs its privilege separation directory
 * /run/sshd, which the openssh-server package's service would create; it is created when missing.
 */
export async function startOpenSshServer(): Promise<OpenSshServer> {
  if (!hasSshd()) throw new Error(`OpenSSH server missing: ${SSHD_PATH} (apt-get install openssh-server)`);
  const root = mkdtempSync(join(tmpdir(), 'railwatt-sshd-'));
  const data = fillDataDirectory(root);
  const keygen = (file: string, passphrase: string) => {
    const result = spawnSync('/usr/bin/ssh-keygen', [
      '-q',
      '-t',
      'ed25519',
      '-N',
      passphrase,
      '-C',
      'railwatt-test',
      '-f',
      file,
    ]);
    if (result.status !== 0) throw new Error(`ssh-keygen failed: ${result.stderr.toString()}`);
  };
  keygen(join(root, 'host_ed25519'), '');
  // OpenSSH's own reading of the host key, so the tests compare with it rather than with our hash.
  const listed = spawnSync('/usr/bin/ssh-keygen', ['-l', '-E', 'sha256', '-f', join(root, 'host_ed25519.pub')]);
  const hostKeyFingerprint = /SHA256:[A-Za-z0-9+/]{43}/.exec(listed.stdout.toString())?.[0];
  if (!hostKeyFingerprint) throw new Error(`ssh-keygen -l printed no fingerprint: ${listed.stderr.toString()}`);
  keygen(join(root, 'client_ed25519'), '');
  const passphrase = 'correct horse battery';
  keygen(join(root, 'client_protected'), passphrase);
  const read = (file: string) => readFileSync(join(root, file), 'utf8');
  const key = { privateKey: read('client_ed25519'), publicKey: read('client_ed25519.pub') };
  const protectedKey = { privateKey: read('client_protected'), publicKey: read('client_protected.pub'), passphrase };
  writeFileSync(join(root, 'authorized_keys'), `${key.publicKey.trim()}\n${protectedKey.publicKey.trim()}\n`, {
    mode: 0o600,
  });
  const port = await freePort();
  const username = userInfo().username;
  const passwordUser = createPasswordUser();
  // The password user reads the data directory too (mkdtemp makes it owner-only).
  if (passwordUser) for (const dir of [root, data]) chmodSync(dir, 0o755);
  writeFileSync(
    join(root, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(root, 'host_ed25519')}`,
      `PidFile ${join(root, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(root, 'authorized_keys')}`,
      'StrictModes no',
      'UsePAM no',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${username}${passwordUser ? ` ${passwordUser.username}` : ''}`,
      'Subsystem sftp internal-sftp',
      'LogLevel ERROR',
      // Passwords for the throwaway account only; everyone else signs in with a key.
      ...(passwordUser ? [`Match User ${passwordUser.username}`, '  PasswordAuthentication yes'] : []),
      '',
    ].join('\n'),
  );
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && !existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
  const sshd = spawn(SSHD_PATH, ['-D', '-e', '-f', join(root, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  sshd.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  try {
    await waitForPort(port, sshd, 10_000);
  } catch (error) {
    sshd.kill();
    rmSync(root, { recursive: true, force: true });
    passwordUser?.remove();
    throw new Error(`${(error as Error).message}: ${stderr}`);
  }
  return {
    hostname: '127.0.0.1',
    port,
    username,
    path: data,
    key,
    protectedKey,
    passwordUser: passwordUser && { username: passwordUser.username, password: passwordUser.password },
    hostKeyFingerprint,
    async close() {
      if (sshd.exitCode === null) {
        sshd.kill('SIGTERM');
        await new Promise((r) => sshd.once('exit', r));
      }
      rmSync(root, { recursive: true, force: true });
      passwordUser?.remove();
    },
  };
}
