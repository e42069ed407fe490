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
}

type Outcome = InterfaceRouteTestResult['outcome'];

/** ssh2-sftp-client's connect options for a route: one attempt, password or private key (with passphrase). */
export function sftpConnectOptions(
  target: Pick<SftpTarget, 'hostname' | 'port' | 'username' | 'credentials'>,
  timeoutMs: number = SFTP_TEST_TIMEOUT_MS,
): SftpClient.ConnectOptions {
  return {
    host: target.hostname,
    port: target.port,
    username: target.username,
    readyTimeout: timeoutMs,
    retries: 0,
    ...('password' in target.credentials
      ? { password: target.credentials.password, tryKeyboard: false }
      : {
          privateKey: target.credentials.privateKey,
          ...(target.credentials.passphrase ? { passphrase: target.credentials.passphrase } : {}),
        }),
  };
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
 * answers 200 whatever the remote server does. The host key is not checked (routes hold no
 * fingerprint yet); a test says only that host, credentials and path work.
 */
export async function testSftpConnection(
  target: SftpTarget,
  timeoutMs: number = SFTP_TEST_TIMEOUT_MS,
): Promise<InterfaceRouteTestResult> {
  // The library's default listeners print to the console; the outcome here is the answer instead.
  const quiet = () => undefined;
  const client = new SftpClient('railwatt-interface-test', { error: quiet, end: quiet, close: quiet });
  let timer: NodeJS.Timeout | undefined;
  const work = async (): Promise<InterfaceRouteTestResult> => {
    await client.connect(sftpConnectOptions(target, timeoutMs));
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
    return { ...result, message: clip(result.message, 4000) };
  } finally {
    clearTimeout(timer);
    // end() of a client that never connected rejects; the test's answer is already decided.
    // It gets a second at most: a connection still being set up is dropped with the client.
    await Promise.race([client.end().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
  }
}
