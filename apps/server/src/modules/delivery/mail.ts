import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { Executor } from '../domain/sql.js';
import {
  contentOf,
  delivered,
  describeNetworkError,
  errorMessage,
  failed,
  type DeliveryFile,
  type DeliveryOutcome,
} from './delivery-file.js';
import { recordSentMail } from './sent-mail.js';

/**
 * E-mail through nodemailer: to the mail server of SMTP_URL, or, without one (the embedded
 * default), into the mail directory as the .eml file the server would have received, recorded in
 * sent_mail for the administrator's "sent mail" page. Either way the same message is composed
 * (nodemailer's MIME, CRLF line ends as on the wire), so what a demo shows is what would have gone.
 */

export interface MailSettings {
  /** config.smtpUrl; undefined keeps messages instead of sending them. */
  smtpUrl: string | undefined;
  /** config.mailFrom. */
  from: string;
  /** config.sentMailDir: where kept messages go. */
  sentMailDir: string;
  /** config.nodeName: recorded with a kept message (its file is on this node's disk). */
  node: string;
  /**
   * Trust anchors for the mail server's certificate instead of the system's (a test's own CA). The
   * certificate is always checked; an installation with a private CA sets NODE_EXTRA_CA_CERTS.
   */
  ca?: string | Buffer;
  /** How long connecting, the greeting and each exchange may take: default 30 s. */
  timeoutMs?: number;
}

export const MAIL_TIMEOUT_MS = 30_000;

/** What the message says and to whom; the file is its one attachment. */
export interface MailMessage {
  to: readonly string[];
  subject: string;
  text: string;
}

/** Where a kept message is recorded: the executor of its area, the area, and whom it was for. */
export interface MailRecordContext {
  db: Executor;
  tenant: string;
  username: string | null;
}

/** nodemailer's options for SMTP_URL, parsed here so no option of the URL can turn certificate checks off. */
export function smtpOptions(settings: MailSettings & { smtpUrl: string }): SMTPTransport.Options {
  const url = new URL(settings.smtpUrl);
  const secure = url.protocol === 'smtps:';
  const timeout = settings.timeoutMs ?? MAIL_TIMEOUT_MS;
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    ...(settings.ca ? { tls: { ca: settings.ca } } : {}),
  };
}

const where = (options: SMTPTransport.Options) => `${options.host}:${options.port}`;

/** What a failed send means, in plain words (nodemailer's codes: EAUTH, EENVELOPE, ECONNECTION ...). */
export function describeMailError(error: unknown, options: SMTPTransport.Options, timeoutS: number): string {
  const e = error as { code?: unknown; responseCode?: unknown; response?: unknown };
  const response = typeof e.response === 'string' ? e.response.trim() : '';
  if (e.code === 'EAUTH')
    return `The mail server at ${where(options)} refused the sign-in: check the user name and password of SMTP_URL${response ? ` (${response})` : ''}`;
  if (e.code === 'EENVELOPE')
    return `The mail server at ${where(options)} refused the sender or the recipients${response ? `: ${response}` : ''}`;
  if (e.code === 'EMESSAGE' || typeof e.responseCode === 'number')
    return `The mail server at ${where(options)} refused the message${response ? `: ${response}` : ''}`;
  const network = describeNetworkError(error, where(options), timeoutS);
  if (network) return network.replace(/^Host /, 'Mail server ');
  return `Sending the e-mail through ${where(options)} failed: ${errorMessage(error)}`;
}

const mailOf = (settings: MailSettings, message: MailMessage, file: DeliveryFile) => ({
  from: settings.from,
  to: [...message.to],
  subject: message.subject,
  text: message.text,
  attachments: [{ filename: file.fileName, contentType: file.contentType, content: contentOf(file) }],
});

/** Sends the file as the attachment of one message; never throws for what the mail server does. */
export async function deliverByMail(
  settings: MailSettings,
  record: MailRecordContext,
  message: MailMessage,
  file: DeliveryFile,
): Promise<DeliveryOutcome> {
  if (message.to.length === 0) return failed('my email', 'The e-mail has no recipient address');
  const recipients = message.to.join(', ');
  if (!settings.smtpUrl) return keepMail(settings, record, message, file);
  const options = smtpOptions({ ...settings, smtpUrl: settings.smtpUrl });
  const transport = nodemailer.createTransport(options);
  try {
    const info = await transport.sendMail(mailOf(settings, message, file));
    const rejected = info.rejected.map((r) => (typeof r === 'string' ? r : r.address));
    if (rejected.length > 0)
      return failed('my email', `The mail server at ${where(options)} refused the recipients ${rejected.join(', ')}`);
    return delivered('my email', `e-mail to ${recipients} through ${where(options)} (${info.messageId})`);
  } catch (error) {
    return failed('my email', describeMailError(error, options, (settings.timeoutMs ?? MAIL_TIMEOUT_MS) / 1000));
  } finally {
    transport.close();
  }
}

/** A kept message's file name: when, and a random part (sortable, unique, no characters to escape). */
const emlFileName = () => `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;

/**
 * SMTP_URL unset: the message nodemailer composes (streamed, never held whole) is written to the
 * mail directory under a temporary name, renamed into place, and recorded in the area's sent mail.
 */
async function keepMail(
  settings: MailSettings,
  record: MailRecordContext,
  message: MailMessage,
  file: DeliveryFile,
): Promise<DeliveryOutcome> {
  const recipients = message.to.join(', ');
  const name = emlFileName();
  const path = join(settings.sentMailDir, name);
  const partial = `${path}.part`;
  try {
    await mkdir(settings.sentMailDir, { recursive: true });
    const transport = nodemailer.createTransport({ streamTransport: true, newline: 'windows' });
    const info = await transport.sendMail(mailOf(settings, message, file));
    const eml = Buffer.isBuffer(info.message) ? Readable.from([info.message]) : info.message;
    await pipeline(eml, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    await rename(partial, path);
    const id = await recordSentMail(record.db, {
      tenant: record.tenant,
      sender: settings.from,
      recipients: message.to,
      subject: message.subject,
      fileNames: [file.fileName],
      emlFile: name,
      sizeBytes: (await stat(path)).size,
      username: record.username,
      node: settings.node,
    });
    return delivered('my email', `e-mail to ${recipients} kept as sent mail ${id} (SMTP_URL is not set; ${path})`, {
      sentMailId: id,
    });
  } catch (error) {
    await rm(partial, { force: true }).catch(() => undefined);
    await rm(path, { force: true }).catch(() => undefined);
    return failed(
      'my email',
      `The e-mail to ${recipients} could not be kept in ${settings.sentMailDir}: ${errorMessage(error)}`,
    );
  }
}
