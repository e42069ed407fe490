import { z } from 'zod';
import {
  DEFAULT_SFTP_PORT,
  HOST_KEY_FINGERPRINT,
  INTERFACE_ROUTE_MESSAGES,
  safeRemotePath,
  withLeadingSlash,
} from './domain/interface-route.js';
import { LIST_LIMITS, TEXT_LIMITS, list, serverText, text } from './limits.js';
import { pageQuerySchema } from './paging.js';

/**
 * Where a report file goes (issue 20 item 5; calls.md §3 "Report schedule (as entered)": destination
 * type, protocol, host, remote directory, username, password, webservice URI). The server's
 * modules/delivery sends a file to one of these; the schedules store the stored form (the password
 * encrypted, never answered again).
 */

/** calls.md §3, exactly as written: the destination types of a report schedule. */
export const DESTINATION_TYPES = ['my email', 'ftp', 'sftp', 'webservice'] as const;
export const destinationTypeSchema = z.enum(DESTINATION_TYPES);
export type DestinationType = z.infer<typeof destinationTypeSchema>;

/** The protocols of the ftp destination type: plain FTP, or FTPS (explicit TLS, AUTH TLS on port 21). */
export const FTP_PROTOCOLS = ['FTP', 'FTPS'] as const;
export const ftpProtocolSchema = z.enum(FTP_PROTOCOLS);
export type FtpProtocol = z.infer<typeof ftpProtocolSchema>;

export const DEFAULT_FTP_PORT = 21;

/** Bounds of a destination's fields (a DNS name is at most 253 characters). */
export const DESTINATION_LIMITS = {
  host: 253,
  remoteDirectory: 1024,
  username: 256,
  password: 256,
  webserviceUri: 2048,
  /** The stored, encrypted password (v1.<iv>.<tag>.<ciphertext> of at most 256 characters). */
  passwordEncrypted: 1024,
} as const;

export const DESTINATION_MESSAGES = {
  hostFormat: 'The host must be a host name or an address, without spaces, slashes or a port',
  usernameFormat: 'The username must not contain control characters',
  webserviceUriFormat: 'The webservice URI must be an https:// address without user name or password in it',
} as const;

/** Control characters (C0, DEL, C1): nothing a host, username or directory needs. */
const CONTROL_CHARACTERS = /\p{Cc}/u;

/** A host name or an IPv4/IPv6 address (brackets allowed around IPv6): no spaces, slashes, '@' or '?'. */
const hostSchema = text(DESTINATION_LIMITS.host)
  .trim()
  .min(1)
  .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._:-]+)$/, DESTINATION_MESSAGES.hostFormat)
  // A colon only in an IPv6 address (two at least): "host:21" is a host with a port, refused.
  .refine((v) => (v.match(/:/g) ?? []).length !== 1, DESTINATION_MESSAGES.hostFormat);
const portSchema = z.number().int().min(1).max(65535);
/** A remote directory: no ".." segment, no control characters; forced to start with a slash (as routes' paths). */
const remoteDirectorySchema = text(DESTINATION_LIMITS.remoteDirectory)
  .trim()
  .refine(safeRemotePath, INTERFACE_ROUTE_MESSAGES.pathFormat)
  .default('/')
  .transform((v) => withLeadingSlash(v === '' ? '/' : v));
const usernameSchema = text(DESTINATION_LIMITS.username)
  .trim()
  .min(1)
  .refine((v) => !CONTROL_CHARACTERS.test(v), DESTINATION_MESSAGES.usernameFormat);
const passwordSchema = text(DESTINATION_LIMITS.password).min(1);
const passwordEncryptedSchema = text(DESTINATION_LIMITS.passwordEncrypted).min(1);
/**
 * The web service's address: https only (certificates checked). Credentials go in username and
 * password (HTTP basic authentication), never in the address, which is shown and logged.
 */
export const webserviceUriSchema = z
  .url({ protocol: /^https$/, error: DESTINATION_MESSAGES.webserviceUriFormat })
  .max(DESTINATION_LIMITS.webserviceUri)
  .refine((v) => {
    // Also run when the address check above failed: a text that is no URL is refused there.
    if (!URL.canParse(v)) return true;
    const url = new URL(v);
    return url.username === '' && url.password === '';
  }, DESTINATION_MESSAGES.webserviceUriFormat);
/** The SFTP server's pinned host key (as ssh-keygen -l prints it); absent: the first connection pins it. */
const hostKeyFingerprintSchema = text(TEXT_LIMITS.code)
  .regex(HOST_KEY_FINGERPRINT, INTERFACE_ROUTE_MESSAGES.hostKeyFormat)
  .nullish();
/** One e-mail address (RFC 5321 path limit). */
export const emailAddressSchema = z.email().max(TEXT_LIMITS.email);

const myEmail = { destinationType: z.literal('my email') };
const ftp = {
  destinationType: z.literal('ftp'),
  protocol: ftpProtocolSchema.default('FTP'),
  host: hostSchema,
  port: portSchema.default(DEFAULT_FTP_PORT),
  remoteDirectory: remoteDirectorySchema,
  username: usernameSchema,
};
const sftp = {
  destinationType: z.literal('sftp'),
  host: hostSchema,
  port: portSchema.default(DEFAULT_SFTP_PORT),
  remoteDirectory: remoteDirectorySchema,
  username: usernameSchema,
  hostKeyFingerprint: hostKeyFingerprintSchema,
};
const webservice = {
  destinationType: z.literal('webservice'),
  webserviceUri: webserviceUriSchema,
  /** HTTP basic authentication, when the service asks for it. */
  username: usernameSchema.optional(),
};

/**
 * A destination as entered (a schedule's form, "with-credentials"): the password in clear, to be
 * encrypted by the server at once (modules/delivery/credentials.ts). "my email" is the address of
 * the user the report is for, which the server knows; it carries nothing else.
 */
export const deliveryDestinationSchema = z.discriminatedUnion('destinationType', [
  z.object(myEmail).strict(),
  z.object({ ...ftp, password: passwordSchema }).strict(),
  z.object({ ...sftp, password: passwordSchema }).strict(),
  z.object({ ...webservice, password: passwordSchema.optional() }).strict(),
]);
export type DeliveryDestination = z.output<typeof deliveryDestinationSchema>;
export type DeliveryDestinationInput = z.input<typeof deliveryDestinationSchema>;

/**
 * A destination as a schedule's form sends it (issue 20 item 4): the fields of
 * deliveryDestinationSchema with the password optional, since an edit that leaves it empty keeps the
 * stored one (never shown again). Sent on POST /processing/scheduledreports/with-credentials when a
 * password is typed; the server holds a new FTP or SFTP destination to having one.
 */
export const deliveryDestinationEntrySchema = z.discriminatedUnion('destinationType', [
  z.object(myEmail).strict(),
  z.object({ ...ftp, password: passwordSchema.optional() }).strict(),
  z.object({ ...sftp, password: passwordSchema.optional() }).strict(),
  z.object({ ...webservice, password: passwordSchema.optional() }).strict(),
]);
export type DeliveryDestinationEntry = z.output<typeof deliveryDestinationEntrySchema>;
export type DeliveryDestinationEntryInput = z.input<typeof deliveryDestinationEntrySchema>;

/** A destination as stored: the password encrypted (never in an answer). */
export const storedDeliveryDestinationSchema = z.discriminatedUnion('destinationType', [
  z.object(myEmail).strict(),
  z.object({ ...ftp, passwordEncrypted: passwordEncryptedSchema }).strict(),
  z.object({ ...sftp, passwordEncrypted: passwordEncryptedSchema }).strict(),
  z.object({ ...webservice, passwordEncrypted: passwordEncryptedSchema.optional() }).strict(),
]);
export type StoredDeliveryDestination = z.output<typeof storedDeliveryDestinationSchema>;

/** A destination as answered: whether a password is set, never the password. */
export const deliveryDestinationViewSchema = z.discriminatedUnion('destinationType', [
  z.object(myEmail),
  z.object({ ...ftp, hasPassword: z.boolean() }),
  z.object({ ...sftp, hasPassword: z.boolean() }),
  z.object({ ...webservice, hasPassword: z.boolean() }),
]);
export type DeliveryDestinationView = z.output<typeof deliveryDestinationViewSchema>;

// --- Sent mail (the embedded default keeps each message instead of sending it) ---------------------

/**
 * One message the server kept instead of sending (SMTP_URL unset): the administrator's "sent mail"
 * page lists them and downloads each as the .eml file a mail server would have received.
 */
export const sentMailSchema = z.object({
  id: z.number().int(),
  /** The area the message was for (its report's area). */
  tenant: z.uuid(),
  areaName: serverText(TEXT_LIMITS.name),
  sentAt: serverText(TEXT_LIMITS.code),
  sender: serverText(TEXT_LIMITS.comment),
  recipients: list(serverText(TEXT_LIMITS.email), LIST_LIMITS.small),
  subject: serverText(TEXT_LIMITS.comment),
  /** The attached files' names. */
  fileNames: list(serverText(TEXT_LIMITS.name), LIST_LIMITS.small),
  /** The .eml file's size in bytes. */
  sizeBytes: z.number().int(),
  /** Who the message was sent for (the report's orderer), when known. */
  username: serverText(TEXT_LIMITS.identifier).nullable(),
  /** NODE_NAME of the server whose data directory holds the file. */
  node: serverText(TEXT_LIMITS.name),
});
export type SentMail = z.infer<typeof sentMailSchema>;

export const SENT_MAIL_SORT_FIELDS = ['sentAt', 'subject', 'sizeBytes', 'id'] as const;
export const sentMailPageQuerySchema = pageQuerySchema.extend({
  sortBy: z.enum(SENT_MAIL_SORT_FIELDS).default('sentAt'),
  /** Case-insensitive contains on subject, recipients and attachment names. */
  search: text(TEXT_LIMITS.search).optional(),
});
export type SentMailPageQuery = z.output<typeof sentMailPageQuerySchema>;

export const sentMailIdParamSchema = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** The content type of a downloaded message (RFC 5322 message, as a mail client opens it). */
export const EML_CONTENT_TYPE = 'message/rfc822';
