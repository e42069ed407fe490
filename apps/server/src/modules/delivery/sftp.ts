import type { InterfaceCredentials } from '@railwatt/contracts';
import type { AllowedHosts } from '../interface/allowed-hosts.js';
import { SFTP_UPLOAD_CONNECT_TIMEOUT_MS, uploadFiles } from '../interface/sftp-upload.js';
import {
  contentOf,
  delivered,
  errorMessage,
  failed,
  type DeliveryFile,
  type DeliveryOutcome,
} from './delivery-file.js';

/**
 * SFTP through the interface routes' connection path (modules/interface/sftp-upload.ts): the same
 * host check (INTERFACE_ALLOWED_HOSTS) at every connection, the same pinned host key (a mismatch
 * sends nothing), the same temporary name renamed into place, and folders made when missing.
 */

export interface SftpDeliveryTarget {
  host: string;
  port: number;
  remoteDirectory: string;
  username: string;
  /** A schedule stores a password; a private key (with its passphrase) works as for routes. */
  credentials: InterfaceCredentials;
  /** The pinned host key (SHA256:...); null or absent: the key met is accepted and handed to onNewHostKey. */
  hostKeyFingerprint?: string | null;
  /** Called with the key met when none was pinned, once authenticated: the caller stores it (accept-new). */
  onNewHostKey?: (fingerprint: string) => Promise<unknown>;
}

export interface SftpDeliveryOptions {
  /** INTERFACE_ALLOWED_HOSTS (config.interfaceAllowedHosts): required, undefined for any host. */
  allowedHosts: AllowedHosts | undefined;
  /** How long connecting may take: default that of the interface uploads (15 s). */
  timeoutMs?: number;
}

/** Uploads the file to the directory; never throws for what the server or the network does. */
export async function deliverBySftp(
  target: SftpDeliveryTarget,
  file: DeliveryFile,
  options: SftpDeliveryOptions,
): Promise<DeliveryOutcome> {
  const bytes = contentOf(file);
  try {
    const [outcome] = await uploadFiles(
      {
        routeId: 'report-delivery',
        hostname: target.host,
        port: target.port,
        username: target.username,
        credentials: target.credentials,
        hostKeyFingerprint: target.hostKeyFingerprint ?? null,
        allowedHosts: options.allowedHosts,
        ...(target.onNewHostKey ? { onNewHostKey: target.onNewHostKey } : {}),
      },
      [{ dir: target.remoteDirectory, fileName: file.fileName, bytes }],
      options.timeoutMs ?? SFTP_UPLOAD_CONNECT_TIMEOUT_MS,
    );
    if (!outcome) return failed('sftp', 'Nothing was uploaded');
    return outcome.ok
      ? delivered('sftp', `sftp://${target.host}:${target.port}${outcome.remotePath}`)
      : failed('sftp', outcome.error);
  } catch (error) {
    // uploadFiles answers every failure it knows; this is one it does not (a host key that cannot
    // be stored, say): still an outcome, not a thrown error.
    return failed('sftp', `The SFTP delivery to ${target.host}:${target.port} failed: ${errorMessage(error)}`);
  } finally {
    // A stream the upload never read (no connection) is closed, not left open.
    if (!Buffer.isBuffer(bytes) && !bytes.readableEnded) bytes.destroy();
  }
}
