import { emailAddressSchema, type StoredDeliveryDestination } from '@railwatt/contracts';
import type { AppConfig } from '../../config.js';
import type { AllowedHosts } from '../interface/allowed-hosts.js';
import type { CredentialsKeySource } from '../interface/credentials.js';
import type { Executor } from '../domain/sql.js';
import { decryptDestinationPassword } from './credentials.js';
import { errorMessage, failed, fileNameProblem, type DeliveryFile, type DeliveryOutcome } from './delivery-file.js';
import { deliverByFtp, type FtpOptions, type FtpTarget } from './ftp.js';
import { deliverByMail, type MailMessage, type MailSettings } from './mail.js';
import { deliverBySftp, type SftpDeliveryTarget } from './sftp.js';
import { deliverByWebservice, type WebserviceOptions, type WebserviceTarget } from './webservice.js';

/**
 * Delivery of report files (issue 20 item 5): one function, `deliverFile`, sends a file to one
 * destination through the adapter of its type: e-mail (mail.ts), FTP/FTPS (ftp.ts), SFTP (sftp.ts,
 * the interface routes' path) or a web service (webservice.ts). Each answers an outcome, never a
 * thrown error for what the network or the peer does, so the caller (an ordered or scheduled
 * report's job) writes it into the data log and decides whether to try again.
 */

/** A destination ready to deliver to: passwords decrypted, "my email" resolved to addresses. */
export type DeliveryTarget =
  | ({ destinationType: 'my email' } & MailMessage)
  | ({ destinationType: 'ftp' } & FtpTarget)
  | ({ destinationType: 'sftp' } & SftpDeliveryTarget)
  | ({ destinationType: 'webservice' } & WebserviceTarget);

/** What delivering needs of the installation (deliverySettings(config)); tests give their own. */
export interface DeliverySettings {
  /** INTERFACE_ALLOWED_HOSTS: FTP, SFTP and web-service hosts must match it (undefined: any host). */
  allowedHosts: AllowedHosts | undefined;
  mail: MailSettings;
  /** Timeouts and trust anchors of FTPS (defaults in ftp.ts). */
  ftp?: Omit<FtpOptions, 'allowedHosts'>;
  /** Timeout per SFTP connection (default in interface/sftp-upload.ts). */
  sftp?: { timeoutMs?: number };
  /** Timeout, attempts, pause and trust anchors of the web service (defaults in webservice.ts). */
  webservice?: Omit<WebserviceOptions, 'allowedHosts'>;
  /** INTERFACE_CREDENTIALS_KEY (absent: the stored key): decrypts a schedule's destination password. */
  credentialsKey?: CredentialsKeySource;
  /**
   * A scheduled report's delivery that failed is tried again: `attempts` in all, waiting `delayMs`,
   * then twice that ... between them (DEFAULT_SCHEDULED_RETRY).
   */
  scheduledRetry?: { attempts: number; delayMs: number };
}

/** Three attempts, 30 s and 60 s apart: a peer restarting or a full disk for a minute is not an ERROR (config's defaults). */
export const DEFAULT_SCHEDULED_RETRY = { attempts: 3, delayMs: 30_000 } as const;

/** The settings of the configuration: SMTP_URL, MAIL_FROM, SENT_MAIL_DIR, NODE_NAME, INTERFACE_ALLOWED_HOSTS. */
export const deliverySettings = (
  config: Pick<
    AppConfig,
    | 'smtpUrl'
    | 'mailFrom'
    | 'sentMailDir'
    | 'nodeName'
    | 'interfaceAllowedHosts'
    | 'interfaceCredentialsKey'
    | 'scheduledDeliveryRetry'
  >,
): DeliverySettings => ({
  allowedHosts: config.interfaceAllowedHosts,
  credentialsKey: config.interfaceCredentialsKey,
  scheduledRetry: config.scheduledDeliveryRetry,
  mail: { smtpUrl: config.smtpUrl, from: config.mailFrom, sentMailDir: config.sentMailDir, node: config.nodeName },
});

/** Who the delivery is for: the area's executor and uuid (a kept e-mail is recorded there) and the user. */
export interface DeliveryContext {
  db: Executor;
  tenant: string;
  username: string | null;
}

/** Sends `file` to `target`; never throws for what the destination or the network does. */
export async function deliverFile(
  settings: DeliverySettings,
  ctx: DeliveryContext,
  target: DeliveryTarget,
  file: DeliveryFile,
): Promise<DeliveryOutcome> {
  const problem = fileNameProblem(file.fileName);
  if (problem) return failed(target.destinationType, `${problem}: ${file.fileName.slice(0, 200)}`, 0);
  switch (target.destinationType) {
    case 'my email': {
      const { destinationType: _type, ...message } = target;
      const invalid = message.to.filter((address) => !emailAddressSchema.safeParse(address).success);
      if (invalid.length > 0)
        return failed('my email', `Not an e-mail address: ${invalid.join(', ').slice(0, 500)}`, 0);
      return deliverByMail(settings.mail, ctx, message, file);
    }
    case 'ftp':
      return deliverByFtp(target, file, { ...settings.ftp, allowedHosts: settings.allowedHosts });
    case 'sftp':
      return deliverBySftp(target, file, { ...settings.sftp, allowedHosts: settings.allowedHosts });
    case 'webservice':
      return deliverByWebservice(target, file, { ...settings.webservice, allowedHosts: settings.allowedHosts });
  }
}

/** Sends `file` to each target in turn (a file is opened anew for each); one outcome per target, in order. */
export async function deliverToAll(
  settings: DeliverySettings,
  ctx: DeliveryContext,
  targets: readonly DeliveryTarget[],
  file: DeliveryFile,
): Promise<DeliveryOutcome[]> {
  const outcomes: DeliveryOutcome[] = [];
  for (const target of targets) outcomes.push(await deliverFile(settings, ctx, target, file));
  return outcomes;
}

/** What resolving a stored destination needs besides it. */
export interface ResolveOptions {
  /** The credentials key (deliveryCredentialsKey) and the owner the password was encrypted for. */
  key: Buffer;
  owner: string;
  /** "my email": the address of the user the report is for (null when the user has none), and the message. */
  myEmail: string | null;
  message: { subject: string; text: string };
  /** SFTP: stores the host key met when none was pinned (accept-new). */
  onNewHostKey?: (fingerprint: string) => Promise<unknown>;
}

/**
 * A stored destination (a schedule's) as a target, its password decrypted; or, when it cannot be
 * delivered to (no address for "my email", a password that no longer decrypts), the failed outcome
 * to record instead.
 */
export function resolveDestination(
  stored: StoredDeliveryDestination,
  options: ResolveOptions,
): { ok: true; target: DeliveryTarget } | { ok: false; outcome: DeliveryOutcome } {
  if (stored.destinationType === 'my email') {
    if (!options.myEmail)
      return { ok: false, outcome: failed('my email', 'The user has no e-mail address to send the report to', 0) };
    return { ok: true, target: { destinationType: 'my email', to: [options.myEmail], ...options.message } };
  }
  let password: string | undefined;
  try {
    password =
      stored.passwordEncrypted === undefined
        ? undefined
        : decryptDestinationPassword(options.key, options.owner, stored.passwordEncrypted);
  } catch (error) {
    const why = errorMessage(error);
    return {
      ok: false,
      outcome: failed(
        stored.destinationType,
        `The destination's password could not be read (${why}): enter it again`,
        0,
      ),
    };
  }
  const { passwordEncrypted: _stored, ...rest } = stored;
  switch (rest.destinationType) {
    case 'ftp':
      return { ok: true, target: { ...rest, password: password ?? '' } };
    case 'sftp':
      return {
        ok: true,
        target: {
          ...rest,
          credentials: { password: password ?? '' },
          ...(options.onNewHostKey ? { onNewHostKey: options.onNewHostKey } : {}),
        },
      };
    case 'webservice':
      return { ok: true, target: { ...rest, ...(password !== undefined ? { password } : {}) } };
  }
}
