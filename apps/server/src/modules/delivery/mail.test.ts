import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mailAttachments,
  mailHeader,
  makeTestCertificate,
  startSmtpServer,
  type TestCertificate,
  type TestSmtpServer,
} from '../../test/delivery-peers.js';
import { freePort } from '../../test/sftp-servers.js';
import { requireTool } from '../../test/tools.js';
import type { Executor } from '../domain/sql.js';
import { deliverByMail, type MailRecordContext, type MailSettings } from './mail.js';

/**
 * E-mail through SMTP_URL against smtp-server on a local port: the message that arrives carries the
 * file as its attachment, byte for byte, from MAIL_FROM to the recipients. Sending records nothing
 * (only kept messages are recorded: routes/administration/sent-mail.test.ts).
 */

const bytes = randomBytes(150_000);
const file = { fileName: 'customerinvoicemonthappendix.pdf', contentType: 'application/pdf', content: bytes };
const message = { to: ['ru@example.org', 'keeper@example.org'], subject: 'Report for October 2026', text: 'Attached.' };

/** Sending through SMTP writes no row: an executor that fails the test if it is used. */
const noDatabase: Executor = {
  execute: () => Promise.reject(new Error('the SMTP path must not write to the database')),
} as unknown as Executor;
const record: MailRecordContext = { db: noDatabase, tenant: '00000000-0000-4000-8000-000000000000', username: 'u' };

const settings = (smtpUrl: string, over: Partial<MailSettings> = {}): MailSettings => ({
  smtpUrl,
  from: 'Railwatt <noreply@railwatt.test>',
  sentMailDir: '/nonexistent',
  node: 'test',
  timeoutMs: 10_000,
  ...over,
});

describe('e-mail through an SMTP server without TLS', () => {
  let server: TestSmtpServer;
  let authServer: TestSmtpServer;
  beforeAll(async () => {
    server = await startSmtpServer();
    authServer = await startSmtpServer({ auth: { user: 'mailer', pass: 'p@ss word' } });
  });
  afterAll(async () => {
    await server?.close();
    await authServer?.close();
  });

  it('delivers the file as the attachment, byte for byte, to every recipient', async () => {
    const outcome = await deliverByMail(settings(`smtp://127.0.0.1:${server.port}`), record, message, file);
    expect(outcome).toMatchObject({ ok: true, destinationType: 'my email', attempts: 1 });
    expect(outcome.ok && outcome.location).toMatch(
      new RegExp(
        `^e-mail to ru@example\\.org, keeper@example\\.org through 127\\.0\\.0\\.1:${server.port} \\(<.+>\\)$`,
      ),
    );
    const [mail] = server.received.slice(-1);
    expect(mail!.from).toBe('noreply@railwatt.test');
    expect(mail!.to).toEqual(['ru@example.org', 'keeper@example.org']);
    expect(mailHeader(mail!.raw, 'Subject')).toBe('Report for October 2026');
    expect(mailHeader(mail!.raw, 'From')).toBe('Railwatt <noreply@railwatt.test>');
    const attachments = mailAttachments(mail!.raw);
    expect([...attachments.keys()]).toEqual(['customerinvoicemonthappendix.pdf']);
    expect(attachments.get('customerinvoicemonthappendix.pdf')!.equals(bytes)).toBe(true);
  });

  it('signs in with the user and password of SMTP_URL, and streams a file given as a stream', async () => {
    const before = authServer.received.length;
    const outcome = await deliverByMail(
      settings(`smtp://mailer:${encodeURIComponent('p@ss word')}@127.0.0.1:${authServer.port}`),
      record,
      message,
      { ...file, content: () => Readable.from([bytes.subarray(0, 3), bytes.subarray(3)]) },
    );
    expect(outcome).toMatchObject({ ok: true });
    const [mail] = authServer.received.slice(before);
    expect(mailAttachments(mail!.raw).get(file.fileName)!.equals(bytes)).toBe(true);
  });

  it('says the mail server refused the sign-in for a wrong password, and nothing arrives', async () => {
    const before = authServer.received.length;
    const outcome = await deliverByMail(
      settings(`smtp://mailer:wrong@127.0.0.1:${authServer.port}`),
      record,
      message,
      file,
    );
    expect(outcome).toMatchObject({ ok: false, destinationType: 'my email', attempts: 1 });
    expect(outcome.ok === false && outcome.reason).toMatch(
      new RegExp(
        `^The mail server at 127\\.0\\.0\\.1:${authServer.port} refused the sign-in: check the user name and password of SMTP_URL \\(535 `,
      ),
    );
    expect(authServer.received.length).toBe(before);
  });

  it('says the mail server is unreachable when nothing listens', async () => {
    const port = await freePort();
    expect(await deliverByMail(settings(`smtp://127.0.0.1:${port}`), record, message, file)).toEqual({
      ok: false,
      destinationType: 'my email',
      reason: `Mail server 127.0.0.1:${port} unreachable: nothing accepts connections on the port`,
      attempts: 1,
    });
  });

  it('sends nothing without a recipient', async () => {
    expect(
      await deliverByMail(settings(`smtp://127.0.0.1:${server.port}`), record, { ...message, to: [] }, file),
    ).toMatchObject({ ok: false, reason: 'The e-mail has no recipient address' });
  });
});

describe.skipIf(!requireTool('openssl', 'the e-mail delivery over STARTTLS'))('e-mail over STARTTLS', () => {
  let certificate: TestCertificate;
  let server: TestSmtpServer;
  beforeAll(async () => {
    certificate = makeTestCertificate();
    server = await startSmtpServer({ tls: certificate });
  });
  afterAll(async () => server?.close());

  it('upgrades to TLS and delivers when the certificate is trusted', async () => {
    const outcome = await deliverByMail(
      settings(`smtp://127.0.0.1:${server.port}`, { ca: certificate.cert }),
      record,
      message,
      file,
    );
    expect(outcome).toMatchObject({ ok: true });
    expect(mailAttachments(server.received.at(-1)!.raw).get(file.fileName)!.equals(bytes)).toBe(true);
  });

  it('sends nothing to a server whose certificate it was not given to trust', async () => {
    const before = server.received.length;
    const outcome = await deliverByMail(settings(`smtp://127.0.0.1:${server.port}`), record, message, file);
    expect(outcome.ok === false && outcome.reason).toMatch(
      new RegExp(`^The certificate of 127\\.0\\.0\\.1:${server.port} is not trusted`),
    );
    expect(server.received.length).toBe(before);
  });
});
