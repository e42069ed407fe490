import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeTestCertificate,
  startHttpServer,
  type TestCertificate,
  type TestHttpServer,
} from '../../test/delivery-peers.js';
import { freePort } from '../../test/sftp-servers.js';
import { requireTool } from '../../test/tools.js';
import { parseAllowedHosts } from '../interface/allowed-hosts.js';
import { deliverByWebservice } from './webservice.js';

/**
 * The web service adapter against real local servers: an HTTPS server with a self-signed
 * certificate (trusted only when the test hands it over as `ca`), and a plain HTTP server for the
 * retries and the timeout. What the server received is compared byte for byte.
 */

const LOCAL = parseAllowedHosts('127.0.0.1');
const bytes = randomBytes(64 * 1024 + 17);
const file = { fileName: 'settlement 2026-10 ø.xlsx', contentType: 'application/vnd.ms-excel', content: bytes };

describe.skipIf(!requireTool('openssl', 'the web service delivery over HTTPS'))('web service over HTTPS', () => {
  let certificate: TestCertificate;
  let server: TestHttpServer;
  beforeAll(async () => {
    certificate = makeTestCertificate();
    server = await startHttpServer((_request, response) => response.writeHead(201).end('stored'), {
      tls: certificate,
    });
  });
  afterAll(async () => server?.close());

  it('POSTs the exact bytes with the file name and type, and says where they landed', async () => {
    const before = server.received.length;
    const outcome = await deliverByWebservice(
      { webserviceUri: `https://127.0.0.1:${server.port}/reports/inbox?area=no`, username: 'rw', password: 'pässword' },
      file,
      { allowedHosts: LOCAL, ca: certificate.cert },
    );
    expect(outcome).toEqual({
      ok: true,
      destinationType: 'webservice',
      location: `POST https://127.0.0.1:${server.port}/reports/inbox: HTTP 201 Created`,
      attempts: 1,
    });
    const [request] = server.received.slice(before);
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/reports/inbox?area=no');
    expect(request!.body.equals(bytes)).toBe(true);
    expect(request!.headers['content-type']).toBe('application/vnd.ms-excel');
    expect(request!.headers['content-disposition']).toBe(
      `attachment; filename="settlement 2026-10 _.xlsx"; filename*=UTF-8''settlement%202026-10%20%C3%B8.xlsx`,
    );
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from('rw:pässword').toString('base64')}`);
  });

  it('streams a file given as a stream source, opening it for the attempt', async () => {
    const before = server.received.length;
    let opened = 0;
    const outcome = await deliverByWebservice(
      { webserviceUri: `https://localhost:${server.port}/in` },
      {
        fileName: 'big.csv',
        contentType: 'text/csv',
        content: () => {
          opened += 1;
          return Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]);
        },
      },
      { allowedHosts: parseAllowedHosts('localhost'), ca: certificate.cert },
    );
    expect(outcome).toMatchObject({ ok: true, attempts: 1 });
    expect(opened).toBe(1);
    expect(server.received.slice(before).map((r) => r.body.equals(bytes))).toEqual([true]);
  });

  it('refuses a certificate it was not given to trust, and sends nothing', async () => {
    const before = server.received.length;
    const outcome = await deliverByWebservice({ webserviceUri: `https://127.0.0.1:${server.port}/in` }, file, {
      allowedHosts: LOCAL,
      attempts: 1,
    });
    expect(outcome).toMatchObject({ ok: false, destinationType: 'webservice', attempts: 1 });
    expect(outcome.ok === false && outcome.reason).toMatch(
      new RegExp(`^The certificate of 127\\.0\\.0\\.1:${server.port} is not trusted \\(self-signed certificate\\)`),
    );
    expect(server.received.length).toBe(before);
  });

  it('refuses a trusted certificate that names another host', async () => {
    const elsewhere = makeTestCertificate(['DNS:reports.example.org']);
    const other = await startHttpServer((_q, response) => response.end(), { tls: elsewhere });
    try {
      const outcome = await deliverByWebservice({ webserviceUri: `https://127.0.0.1:${other.port}/in` }, file, {
        allowedHosts: LOCAL,
        attempts: 1,
        ca: elsewhere.cert,
      });
      expect(outcome.ok).toBe(false);
      expect(outcome.ok === false && outcome.reason).toMatch(/is not trusted/);
      expect(other.received).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('web service: what is refused before anything is sent', () => {
  it('a host the allowed hosts do not name', async () => {
    const outcome = await deliverByWebservice({ webserviceUri: 'https://203.0.113.9/in' }, file, {
      allowedHosts: LOCAL,
    });
    expect(outcome).toEqual({
      ok: false,
      destinationType: 'webservice',
      reason: expect.stringMatching(/^The host 203\.0\.113\.9:443 is not among the hosts this platform allows/),
      attempts: 0,
    });
  });

  it('plain http unless the caller allows it, and an address holding credentials', async () => {
    expect(
      await deliverByWebservice({ webserviceUri: 'http://127.0.0.1:9/in' }, file, { allowedHosts: LOCAL }),
    ).toMatchObject({
      ok: false,
      reason: 'The webservice URI http://127.0.0.1:9/in is not https://: nothing was sent',
    });
    expect(
      await deliverByWebservice({ webserviceUri: 'https://u:p@127.0.0.1/in' }, file, { allowedHosts: LOCAL }),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/must not hold a user name or password/) });
  });
});

describe('web service over plain HTTP: retries, timeout, refusals', () => {
  const fast = { allowedHosts: LOCAL, allowPlainHttp: true, backoffMs: 10 };

  it('tries again after 503 and 500, then delivers: the bytes of the last attempt arrive whole', async () => {
    const server = await startHttpServer((_q, response, i) => response.writeHead(i < 2 ? [503, 500][i]! : 200).end());
    try {
      const outcome = await deliverByWebservice({ webserviceUri: `http://127.0.0.1:${server.port}/in` }, file, fast);
      expect(outcome).toMatchObject({
        ok: true,
        attempts: 3,
        location: `POST http://127.0.0.1:${server.port}/in: HTTP 200 OK`,
      });
      expect(server.received.map((r) => r.body.equals(bytes))).toEqual([true, true, true]);
    } finally {
      await server.close();
    }
  });

  it('gives up after the attempts it was given, saying what the service answered', async () => {
    const server = await startHttpServer((_q, response) => response.writeHead(502).end('upstream down'));
    try {
      const outcome = await deliverByWebservice({ webserviceUri: `http://127.0.0.1:${server.port}/in` }, file, {
        ...fast,
        attempts: 4,
      });
      expect(outcome).toEqual({
        ok: false,
        destinationType: 'webservice',
        reason: `The web service at http://127.0.0.1:${server.port}/in answered HTTP 502 Bad Gateway (4 attempts)`,
        attempts: 4,
      });
      expect(server.received).toHaveLength(4);
    } finally {
      await server.close();
    }
  });

  it('does not try again when the service refuses the file or the credentials', async () => {
    const server = await startHttpServer((_q, response, i) => response.writeHead(i === 0 ? 401 : 422).end());
    try {
      const url = `http://127.0.0.1:${server.port}/in`;
      expect(await deliverByWebservice({ webserviceUri: url }, file, fast)).toEqual({
        ok: false,
        destinationType: 'webservice',
        reason: `The web service at ${url} refused the file: HTTP 401 Unauthorized (check the username and password)`,
        attempts: 1,
      });
      expect(await deliverByWebservice({ webserviceUri: url }, file, fast)).toMatchObject({
        ok: false,
        reason: `The web service at ${url} refused the file: HTTP 422 Unprocessable Entity`,
        attempts: 1,
      });
      expect(server.received).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('does not follow a redirect', async () => {
    const server = await startHttpServer((_q, response) =>
      response.writeHead(307, { location: 'https://elsewhere.example/in' }).end(),
    );
    try {
      const outcome = await deliverByWebservice({ webserviceUri: `http://127.0.0.1:${server.port}/in` }, file, fast);
      expect(outcome).toMatchObject({ ok: false, attempts: 1 });
      expect(outcome.ok === false && outcome.reason).toMatch(
        /answered HTTP 307 Temporary Redirect, a redirect to https:\/\/elsewhere\.example\/in; redirects are not followed/,
      );
      expect(server.received).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('gives up on a service that never answers, after its timeout, on each attempt', async () => {
    // The server reads the body and never replies: each attempt ends by the client's timeout.
    const server = await startHttpServer(() => undefined);
    try {
      const outcome = await deliverByWebservice({ webserviceUri: `http://127.0.0.1:${server.port}/in` }, file, {
        ...fast,
        attempts: 2,
        timeoutMs: 1000,
      });
      expect(outcome).toEqual({
        ok: false,
        destinationType: 'webservice',
        reason: `No answer from 127.0.0.1:${server.port} within 1 s (2 attempts)`,
        attempts: 2,
      });
      expect(server.received.map((r) => r.body.length)).toEqual([bytes.length, bytes.length]);
    } finally {
      await server.close();
    }
  });

  it('says the host is unreachable when nothing listens', async () => {
    const port = await freePort();
    const outcome = await deliverByWebservice({ webserviceUri: `http://127.0.0.1:${port}/in` }, file, {
      ...fast,
      attempts: 2,
    });
    expect(outcome).toEqual({
      ok: false,
      destinationType: 'webservice',
      reason: `Host 127.0.0.1:${port} unreachable: nothing accepts connections on the port (2 attempts)`,
      attempts: 2,
    });
  });
});
