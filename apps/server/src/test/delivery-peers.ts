import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FtpSrv } from 'ftp-srv';
import { SMTPServer } from 'smtp-server';

/**
 * Real local peers for the delivery tests (modules/delivery): an SMTP server (the smtp-server
 * package), an FTP/FTPS server (ftp-srv, explicit TLS), and HTTP/HTTPS servers (node:http(s)), each
 * on a free port of 127.0.0.1, recording exactly the bytes that arrive. The SFTP peer is the OpenSSH
 * server of test/sftp-servers.ts. TLS peers present a self-signed certificate made by openssl for
 * 127.0.0.1 and localhost; the client trusts it only when the test passes it as `ca`. Tests that make
 * one ask `requireTool('openssl', ...)` first (test/tools.ts).
 */

export interface TestCertificate {
  key: Buffer;
  cert: Buffer;
}

/**
 * A self-signed certificate (P-256, two days) for `names` (subjectAltName entries; default 127.0.0.1
 * and localhost), made in a temporary directory.
 */
export function makeTestCertificate(names: readonly string[] = ['IP:127.0.0.1', 'DNS:localhost']): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'railwatt-cert-'));
  try {
    const made = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=railwatt-test',
      '-addext',
      `subjectAltName=${names.join(',')}`,
    ]);
    if (made.status !== 0) throw new Error(`openssl req failed: ${made.stderr.toString()}`);
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const portOf = (server: { address(): AddressInfo | string | null }): number => {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
};

// --- SMTP ------------------------------------------------------------------------------------------

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as it arrived after DATA (headers and body, CRLF line ends). */
  raw: Buffer;
}

export interface TestSmtpServer {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * smtp-server on a free port. With `auth` the client must sign in with that user and password
 * (over plain text: allowInsecureAuth, as a local test has no TLS unless `tls` is given); with `tls`
 * STARTTLS is offered with that certificate, else STARTTLS is disabled.
 */
export async function startSmtpServer(
  options: { auth?: { user: string; pass: string }; tls?: TestCertificate } = {},
): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    secure: false,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : { disabledCommands: ['STARTTLS'] }),
    authOptional: !options.auth,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass)
        return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: portOf(server.server as unknown as Server),
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The attachments of a MIME message by file name, their bodies decoded (base64 or as written): the
 * bytes a mail client would save. Enough of MIME for what nodemailer writes.
 */
export function mailAttachments(raw: Buffer): Map<string, Buffer> {
  const text = raw.toString('latin1');
  const found = new Map<string, Buffer>();
  const boundaries = [...text.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1]!);
  for (const boundary of boundaries) {
    for (const part of text.split(`--${boundary}`)) {
      const split = part.indexOf('\r\n\r\n');
      if (split < 0) continue;
      const headers = part.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
      const name = /filename\*?=(?:UTF-8'')?"?([^";\r\n]+)"?/i.exec(headers)?.[1];
      if (!name || !/content-disposition:\s*attachment/i.test(headers)) continue;
      const body = part.slice(split + 4).replace(/\r\n$/, '');
      const base64 = /content-transfer-encoding:\s*base64/i.test(headers);
      found.set(
        decodeURIComponent(name),
        base64 ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : Buffer.from(body, 'latin1'),
      );
    }
  }
  return found;
}

/** A header of a MIME message's top part (unfolded), or undefined. */
export function mailHeader(raw: Buffer, name: string): string | undefined {
  const text = raw.toString('latin1');
  const head = text.slice(0, text.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1];
}

// --- FTP / FTPS ------------------------------------------------------------------------------------

export interface TestFtpServer {
  port: number;
  /** The directory the user's "/" is. */
  root: string;
  /** Successful sign-ins. */
  logins: number;
  close(): Promise<void>;
}

const quietLog = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  fatal: () => undefined,
  child() {
    return quietLog;
  },
};

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGQUIT'] as const;

/**
 * ftp-srv on a free port, passive mode on free ports, one user whose "/" is a temporary directory.
 * With `tls` it offers explicit FTPS (AUTH TLS, PROT P) with that certificate.
 */
export async function startFtpServer(options: {
  user: string;
  pass: string;
  tls?: TestCertificate;
}): Promise<TestFtpServer> {
  const root = mkdtempSync(join(tmpdir(), 'railwatt-ftp-'));
  // ftp-srv adds signal listeners that exit the process; they are taken away again on close.
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const server = new FtpSrv({
    url: 'ftp://127.0.0.1:0',
    pasv_url: '127.0.0.1',
    // 0: every passive data connection listens on a port the system picks.
    pasv_min: 0,
    pasv_max: 0,
    anonymous: false,
    greeting: ['railwatt test'],
    log: quietLog,
    ...(options.tls ? { tls: { key: options.tls.key, cert: options.tls.cert } } : {}),
  });
  const added = SIGNALS.flatMap((s) =>
    process
      .listeners(s)
      .filter((l) => !before.get(s)!.has(l))
      .map((l) => [s, l] as const),
  );
  const peer: TestFtpServer = {
    port: 0,
    root,
    logins: 0,
    async close() {
      await server.close();
      for (const [signal, listener] of added) process.removeListener(signal, listener as () => void);
      rmSync(root, { recursive: true, force: true });
    },
  };
  server.on('login', ({ username, password }, resolve, reject) => {
    if (username === options.user && password === options.pass) {
      peer.logins += 1;
      resolve({ root });
    } else reject(new Error('Bad username or password'));
  });
  server.on('client-error', () => undefined);
  await server.listen();
  peer.port = portOf((server as unknown as { server: Server }).server);
  return peer;
}

// --- HTTP / HTTPS ----------------------------------------------------------------------------------

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface TestHttpServer {
  port: number;
  /** Every request that came in, in order, with its whole body. */
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * An HTTP server (HTTPS with `tls`) on a free port that reads each request's body whole, records it
 * and lets `answer` reply (its index is the request's, from 0). `answer` may leave the response
 * open to make the client wait (a timeout test): close() ends such connections.
 */
export async function startHttpServer(
  answer: (request: ReceivedRequest, response: ServerResponse, index: number) => void,
  options: { tls?: TestCertificate } = {},
): Promise<TestHttpServer> {
  const received: ReceivedRequest[] = [];
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      received.push(entry);
      answer(entry, response, received.length - 1);
    });
  };
  const server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handler)
    : createHttpServer(handler);
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: portOf(server),
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
