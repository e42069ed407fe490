import { createHash } from 'node:crypto';
import type { InterfaceCredentials, InterfaceRouteTestResult } from '@railwatt/contracts';
import SftpClient from 'ssh2-sftp-client';

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
  target: Pick<SftpTarget, 'hostname' | 'port' | 'username' | 'credentials' | 'hostKeyFingerprint' | 'onNewHostKey'>,
  timeoutMs: number,
  check: HostKeyCheck = { mismatch: false },
): Promise<HostKeyCheck> {
  try {
    await client.connect(sftpConnectOptions(target, timeoutMs, check));
  } catch (error) {
    if (check.mismatch && check.seen && target.hostKeyFingerprint)
      throw new HostKeyMismatchError(`${target.hostname}:${target.port}`, target.hostKeyFingerprint, check.seen);
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
  const err = error as { code?: unknown; message?: unknown; level?: unknown };
  const code = typeof err.code === 'string' || typeof err.code === 'number' ? String(err.code) : '';
  const detail = typeof err.message === 'string' ? err.message : String(error);
  const where = `${target.hostname}:${target.port}`;
  if (
    /authentication methods failed|ERR_BAD_AUTH|client-authentication/i.test(`${detail} ${code} ${String(err.level)}`)
  ) {
    return { outcome: 'auth_failed', message: `Authentication failed at ${where}: check the username and credentials` };
  }
  if (/privateKey|private key|passphrase|Encrypted private/i.test(detail)) {
    return {
      outcome: 'auth_failed',
      message: `The private key could not be used (wrong passphrase or unsupported key): ${detail}`,
    };
  }
  if (/Timed out|ETIMEDOUT/i.test(`${detail} ${code}`)) {
    return { outcome: 'timeout', message: `No answer from ${where} within ${SFTP_TEST_TIMEOUT_MS / 1000} s` };
  }
  if (['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET'].includes(code)) {
    const why =
      code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the host name is unknown'
        : code === 'ECONNREFUSED'
          ? 'the connection was refused'
          : code === 'ECONNRESET'
            ? 'the connection was reset'
            : 'the host cannot be reached';
    return { outcome: 'host_unreachable', message: `Host ${where} unreachable: ${why}` };
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
  const timeout = new Promise<InterfaceRouteTestResult>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          ok: false,
          outcome: 'timeout',
          message: `No answer from ${target.hostname}:${target.port} within ${timeoutMs / 1000} s`,
        }),
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
