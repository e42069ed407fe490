import { createHash } from 'node:crypto';
import type { InterfaceCredentials, InterfaceRouteTestResult } from '@railwatt/contracts';
import SftpClient from 'ssh2-sftp-client';
import { hostAllowed, type AllowedHosts } from './allowed-hosts.js';

/** How long a connection test may take in all (connect, authenticate, list): 10 s. */
export const SFTP_TEST_TIMEOUT_MS = 10_000;
/** Names listed in a test answer at most. */
const MAX_ENTRIES = 100;

export interface SftpTarget {
  hostname: string;
  port: number;
  username: string;
  path: string;
  credentials: InterfaceCredentials;
  /** The route's pinned host key (SHA256:...); null or left out: none yet, the key met is accepted. */
  hostKeyFingerprint?: string | null;
  /**
   * INTERFACE_ALLOWED_HOSTS (config.interfaceAllowedHosts): the hostname must match it, or nothing is
   * connected to. Required (undefined: no list), so no caller connects without having passed it on.
   */
  allowedHosts: AllowedHosts | undefined;
  /**
   * Called with the key met when the route had none, once authentication succeeded: the caller pins
   * it (accept-new, as OpenSSH's StrictHostKeyChecking=accept-new), so every later connection must
   * meet the same key.
   */
  onNewHostKey?: (fingerprint: string) => Promise<unknown>;
}

type Outcome = InterfaceRouteTestResult['outcome'];

/** A host key as OpenSSH prints it (ssh-keygen -l): SHA256: and the unpadded base64 of the key blob's SHA-256. */
export const hostKeyFingerprint = (key: Buffer): string =>
  `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

/** What the handshake met: the server's host key, and whether it was refused for not being the pinned one. */
export interface HostKeyCheck {
  seen?: string;
  mismatch: boolean;
}

/** A connection refused because the server presented another key than the route's pinned one. */
export class HostKeyMismatchError extends Error {
  constructor(
    readonly where: string,
    readonly pinned: string,
    readonly seen: string,
  ) {
    super(
      `The server at ${where} presented the host key ${seen}, not the route's ${pinned}: it may have been ` +
        `replaced, or another machine answers in its place. Nothing was sent. Check the key with the ` +
        `server's administrator; if the new key is right, enter it (or clear the host key) on the route.`,
    );
  }
}

/** A route whose hostname INTERFACE_ALLOWED_HOSTS does not admit (saved before the setting, or changed since). */
export class HostNotAllowedError extends Error {
  constructor(readonly where: string) {
    super(
      `The host ${where} is not among the hosts this platform allows (INTERFACE_ALLOWED_HOSTS): nothing was ` +
        `connected to. Change the route's hostname, or ask whoever runs the platform to allow the host.`,
    );
  }
}

/**
 * No SSH server completed a handshake at the route's address. One answer for every way that
 * happens (refused, reset, no route to the host, no answer in time, a service that is not SSH), so
 * the connection test cannot be used to tell one kind of closed or filtered port from another
 * (a port scanner); an administrator needs only "not reachable", and whether the name is known.
 */
export class HostUnreachableError extends Error {
  constructor(
    readonly where: string,
    readonly unknownName: boolean,
  ) {
    super(
      unknownName
        ? `Host ${where} unreachable: the host name is unknown`
        : `Host ${where} unreachable: no SSH server answered there (the host is down or not reachable from ` +
            `here, nothing listens on the port, or what listens is not SSH)`,
    );
  }
}

/** Errors ssh2 raises about the route's own key before any connection is made (not the remote host's doing). */
const LOCAL_KEY_ERROR = /privateKey|private key|passphrase|Encrypted private/i;

/** ssh2-sftp-client's connect options for a route: one attempt, password or private key (with passphrase). */
export function sftpConnectOptions(
  target: Pick<SftpTarget, 'hostname' | 'port' | 'username' | 'credentials' | 'hostKeyFingerprint'>,
  timeoutMs: number = SFTP_TEST_TIMEOUT_MS,
  check: HostKeyCheck = { mismatch: false },
): SftpClient.ConnectOptions {
  return {
    host: target.hostname,
    port: target.port,
    username: target.username,
    readyTimeout: timeoutMs,
    retries: 0,
    // Without hostHash, ssh2 hands over the raw key blob, the bytes OpenSSH's fingerprint hashes.
    hostVerifier: (key: Buffer) => {
      check.seen = hostKeyFingerprint(key);
      check.mismatch = Boolean(target.hostKeyFingerprint) && check.seen !== target.hostKeyFingerprint;
      return !check.mismatch;
    },
    ...('password' in target.credentials
      ? { password: target.credentials.password, tryKeyboard: false }
      : {
          privateKey: target.credentials.privateKey,
          ...(target.credentials.passphrase ? { passphrase: target.credentials.passphrase } : {}),
        }),
  };
}

/**
 * Connects the client to the route's server: the host key must be the pinned one (else a
 * HostKeyMismatchError, before any credentials are sent); a route without a pin gets the key it met
 * through `onNewHostKey`. Answers what the handshake met.
 */
export async function connectSftp(
  client: SftpClient,
  target: Pick<
    SftpTarget,
    'hostname' | 'port' | 'username' | 'credentials' | 'hostKeyFingerprint' | 'onNewHostKey' | 'allowedHosts'
  >,
  timeoutMs: number,
  check: HostKeyCheck = { mismatch: false },
): Promise<HostKeyCheck> {
  const where = `${target.hostname}:${target.port}`;
  // Checked at every connection, not only on save: a route saved before the setting is refused here.
  if (!hostAllowed(target.allowedHosts, target.hostname)) throw new HostNotAllowedError(where);
  try {
    await client.connect(sftpConnectOptions(target, timeoutMs, check));
  } catch (error) {
    if (check.mismatch && check.seen && target.hostKeyFingerprint)
      throw new HostKeyMismatchError(where, target.hostKeyFingerprint, check.seen);
    // Before the server showed a host key, no SSH server has answered: whatever the socket said is
    // one answer (HostUnreachableError says why). The route's own unreadable key is not the host's doing.
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (!check.seen && !LOCAL_KEY_ERROR.test(String(message))) {
      throw new HostUnreachableError(where, code === 'ENOTFOUND' || code === 'EAI_AGAIN');
    }
    throw error;
  }
  if (!target.hostKeyFingerprint && check.seen) await target.onNewHostKey?.(check.seen);
  return check;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** What went wrong, from ssh2 / ssh2-sftp-client errors (a code where they give one, else the message). */
export function classifySftpError(
  error: unknown,
  target: Pick<SftpTarget, 'hostname' | 'port' | 'path'>,
): {
  outcome: Outcome;
  message: string;
} {
  if (error instanceof HostKeyMismatchError) return { outcome: 'host_key_mismatch', message: error.message };
  if (error instanceof HostNotAllowedError) return { outcome: 'host_not_allowed', message: error.message };
  if (error instanceof HostUnreachableError) return { outcome: 'host_unreachable', message: error.message };
  const err = error as { code?: unknown; message?: unknown; level?: unknown };
  const code = typeof err.code === 'string' || typeof err.code === 'number' ? String(err.code) : '';
  const detail = typeof err.message === 'string' ? err.message : String(error);
  const where = `${target.hostname}:${target.port}`;
  if (
    /authentication methods failed|ERR_BAD_AUTH|client-authentication/i.test(`${detail} ${code} ${String(err.level)}`)
  ) {
    return { outcome: 'auth_failed', message: `Authentication failed at ${where}: check the username and credentials` };
  }
  if (LOCAL_KEY_ERROR.test(detail)) {
    return {
      outcome: 'auth_failed',
      message: `The private key could not be used (wrong passphrase or unsupported key): ${detail}`,
    };
  }
  if (/Timed out|ETIMEDOUT/i.test(`${detail} ${code}`)) {
    return { outcome: 'timeout', message: `No answer from ${where} within ${SFTP_TEST_TIMEOUT_MS / 1000} s` };
  }
  // After the handshake (connectSftp answers the ones before it): the connection went away mid-session.
  if (['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET'].includes(code)) {
    return {
      outcome: 'host_unreachable',
      message: new HostUnreachableError(where, code === 'ENOTFOUND' || code === 'EAI_AGAIN').message,
    };
  }
  if (code === 'ENOENT' || code === '2' || /No such file/i.test(detail)) {
    return { outcome: 'path_missing', message: `The path ${target.path} does not exist on ${where}` };
  }
  if (code === 'EACCES' || code === '3' || /Permission denied/i.test(detail)) {
    return {
      outcome: 'path_missing',
      message: `The path ${target.path} on ${where} may not be read (permission denied)`,
    };
  }
  return { outcome: 'failed', message: `Connection to ${where} failed: ${detail}` };
}

/**
 * Connects to the route's SFTP server, checks that its path is a directory and lists it. Every
 * failure is an answer (ok false, the outcome and a message), never a thrown error: the caller
 * answers 200 whatever the remote server does. The host key must be the target's pinned one; the
 * answer names the key the server presented whenever the handshake got that far.
 */
export async function testSftpConnection(
  target: SftpTarget,
  timeoutMs: number = SFTP_TEST_TIMEOUT_MS,
): Promise<InterfaceRouteTestResult> {
  // The library's default listeners print to the console; the outcome here is the answer instead.
  const quiet = () => undefined;
  const client = new SftpClient('railwatt-interface-test', { error: quiet, end: quiet, close: quiet });
  let timer: NodeJS.Timeout | undefined;
  const check: HostKeyCheck = { mismatch: false };
  const work = async (): Promise<InterfaceRouteTestResult> => {
    await connectSftp(client, target, timeoutMs, check);
    const kind = await client.exists(target.path);
    if (kind === false) {
      return {
        ok: false,
        outcome: 'path_missing',
        message: `The path ${target.path} does not exist on ${target.hostname}:${target.port}`,
      };
    }
    if (kind !== 'd') {
      return { ok: false, outcome: 'path_missing', message: `The path ${target.path} is not a directory` };
    }
    const listed = await client.list(target.path);
    const entries = listed
      .map((e) => (e.type === 'd' ? `${e.name}/` : e.name))
      .sort((a, b) => a.localeCompare(b))
      .slice(0, MAX_ENTRIES)
      .map((name) => clip(name, 200));
    return {
      ok: true,
      outcome: 'ok',
      message: `Connected to ${target.hostname}:${target.port}; ${listed.length} entries in ${target.path}`,
      entries,
    };
  };
  // Without a host key by then, no SSH server answered: the same answer as a refused connection.
  const timeout = new Promise<InterfaceRouteTestResult>((resolve) => {
    timer = setTimeout(
      () =>
        resolve(
          check.seen
            ? {
                ok: false,
                outcome: 'timeout',
                message: `No answer from ${target.hostname}:${target.port} within ${timeoutMs / 1000} s`,
              }
            : {
                ok: false,
                outcome: 'host_unreachable',
                message: new HostUnreachableError(`${target.hostname}:${target.port}`, false).message,
              },
        ),
      timeoutMs,
    );
  });
  try {
    const result = await Promise.race([
      work().catch((error: unknown) => ({ ok: false, ...classifySftpError(error, target) })),
      timeout,
    ]);
    return {
      ...result,
      message: clip(result.message, 4000),
      ...(check.seen ? { hostKeyFingerprint: check.seen } : {}),
    };
  } finally {
    clearTimeout(timer);
    // end() of a client that never connected rejects; the test's answer is already decided.
    // It gets a second at most: a connection still being set up is dropped with the client.
    await Promise.race([client.end().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
  }
}
