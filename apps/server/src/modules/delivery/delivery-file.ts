import { Readable } from 'node:stream';
import type { DestinationType } from '@railwatt/contracts';
import { boundedText, holdsNonText } from '../../db/storable-text.js';

/**
 * What every destination adapter of the delivery module shares: the file to deliver, the outcome
 * it answers, and the plain words for what the network said.
 */

/**
 * A file to deliver: its name at the destination, its content type, and its bytes. A large file
 * (a month's report) is given as the function that opens it as a stream, so it is never held whole:
 * a stream can be read once, and a retry (web service) or a second destination reads it again, so
 * each reader calls `content()` anew.
 */
export interface DeliveryFile {
  fileName: string;
  contentType: string;
  content: Buffer | (() => Readable);
}

/**
 * Every adapter answers one of these and never throws for what the network or the peer did. `ok`
 * says where the file landed (an address a person can read); a failure says why in plain words.
 */
export type DeliveryOutcome =
  | {
      ok: true;
      destinationType: DestinationType;
      /** Where the file landed: ftp://host:21/dir/name.xlsx, https://..., "e-mail to a@b.org ...". */
      location: string;
      /** Attempts made (the web service retries; the others make one). */
      attempts: number;
      /** The sent-mail entry, when the message was kept instead of sent (SMTP_URL unset). */
      sentMailId?: number;
    }
  | { ok: false; destinationType: DestinationType; reason: string; attempts: number };

/** Longest reason or location an outcome carries (it goes into a data-log message of 10,000). */
export const MAX_OUTCOME_TEXT = 2000;

export const delivered = (
  destinationType: DestinationType,
  location: string,
  extra: { attempts?: number; sentMailId?: number } = {},
): DeliveryOutcome => ({
  ok: true,
  destinationType,
  location: boundedText(location, MAX_OUTCOME_TEXT),
  attempts: extra.attempts ?? 1,
  ...(extra.sentMailId !== undefined ? { sentMailId: extra.sentMailId } : {}),
});

export const failed = (destinationType: DestinationType, reason: string, attempts = 1): DeliveryOutcome => ({
  ok: false,
  destinationType,
  reason: boundedText(reason, MAX_OUTCOME_TEXT),
  attempts,
});

/** The file's bytes as a fresh stream (a buffer is wrapped; a source is opened again). */
export const openContent = (file: DeliveryFile): Readable =>
  Buffer.isBuffer(file.content) ? Readable.from([file.content]) : file.content();

/** The file's bytes for a reader that takes a buffer or a stream (nodemailer, ssh2-sftp-client). */
export const contentOf = (file: DeliveryFile): Buffer | Readable =>
  Buffer.isBuffer(file.content) ? file.content : file.content();

/** Longest file name delivered (the data log's file names are 200 characters). */
export const MAX_DELIVERY_FILE_NAME = 200;

/**
 * Why a file name cannot be written at a destination, or null when it can: it names a file, not a
 * path ("/", "\", "." and ".." are refused), and holds no control characters.
 */
export function fileNameProblem(fileName: string): string | null {
  if (fileName.length === 0 || fileName.length > MAX_DELIVERY_FILE_NAME)
    return `The file name must have 1 to ${MAX_DELIVERY_FILE_NAME} characters`;
  if (/[\\/]/.test(fileName) || fileName === '.' || fileName === '..')
    return 'The file name must name a file, not a path';
  if (holdsNonText(fileName)) return 'The file name must not contain control characters';
  return null;
}

/** Certificate errors of Node's TLS, by their code: the peer's certificate was not trusted. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
]);

const errorCode = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : '';
};

export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : String(error);

/**
 * What a network failure means, in plain words, or null when `error` is not one (the caller then
 * says what its protocol's error means). `where` is host:port, `timeoutS` the limit that applied.
 */
export function describeNetworkError(error: unknown, where: string, timeoutS: number): string | null {
  const message = errorMessage(error);
  // The system's code, or one quoted in the message (nodemailer wraps it: ESOCKET "connect ECONNREFUSED ...").
  const quoted = /\b(E[A-Z_]{3,})\b/.exec(message)?.[1];
  const codes = new Set([errorCode(error), quoted].filter((c): c is string => Boolean(c)));
  const is = (...names: string[]) => names.some((n) => codes.has(n));
  if (is('ENOTFOUND', 'EAI_AGAIN')) return `Host ${where} unreachable: the host name is unknown`;
  if (is('ECONNREFUSED')) return `Host ${where} unreachable: nothing accepts connections on the port`;
  if (is('EHOSTUNREACH', 'ENETUNREACH')) return `Host ${where} unreachable: no route to the host from here`;
  if (is('ETIMEDOUT', 'ESOCKETTIMEDOUT') || /\btime(d)? ?out\b/i.test(message))
    return `No answer from ${where} within ${timeoutS} s`;
  if (is('ECONNRESET', 'EPIPE') || /socket hang up|closed the connection/i.test(message))
    return `The connection to ${where} was closed by the other side before the file was delivered`;
  if ([...codes].some((c) => CERTIFICATE_CODES.has(c)) || /certificate/i.test(message))
    return `The certificate of ${where} is not trusted (${message}): nothing was sent`;
  if ([...codes].some((c) => /^ERR_SSL|^ERR_TLS/.test(c)) || /\bSSL\b|\bTLS\b|wrong version number/i.test(message))
    return `The secure connection to ${where} failed (${message}): nothing was sent`;
  return null;
}

/** The reason of a host that INTERFACE_ALLOWED_HOSTS does not admit (the words of the SFTP routes). */
export const hostNotAllowedReason = (where: string): string =>
  `The host ${where} is not among the hosts this platform allows (INTERFACE_ALLOWED_HOSTS): nothing was ` +
  `connected to. Change the destination's host, or ask whoever runs the platform to allow the host.`;
