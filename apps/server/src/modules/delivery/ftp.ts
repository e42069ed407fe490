import { posix } from 'node:path';
import type { FtpProtocol } from '@railwatt/contracts';
import { Client, FTPError } from 'basic-ftp';
import { hostAllowed, type AllowedHosts } from '../interface/allowed-hosts.js';
import {
  delivered,
  describeNetworkError,
  errorMessage,
  failed,
  hostNotAllowedReason,
  openContent,
  type DeliveryFile,
  type DeliveryOutcome,
} from './delivery-file.js';

/**
 * FTP and FTPS through basic-ftp. FTPS is explicit TLS (AUTH TLS on the control connection, then
 * PBSZ 0 / PROT P, so the file travels encrypted too) with the server's certificate checked. The
 * directory is made when missing; the file is written under a temporary name and renamed into
 * place, so a receiver polling the folder never reads half a file.
 */

export interface FtpTarget {
  protocol: FtpProtocol;
  host: string;
  port: number;
  remoteDirectory: string;
  username: string;
  password: string;
}

export interface FtpOptions {
  /** INTERFACE_ALLOWED_HOSTS (config.interfaceAllowedHosts): required, undefined for any host. */
  allowedHosts: AllowedHosts | undefined;
  /** How long the server may stay silent (connect, each reply, the transfer's socket): default 30 s. */
  timeoutMs?: number;
  /** Trust anchors for an FTPS server's certificate instead of the system's (a test's own CA). */
  ca?: string | Buffer;
}

export const FTP_TIMEOUT_MS = 30_000;

/** A reply code of the FTP server in plain words (RFC 959 and the common extensions). */
function describeFtpReply(error: FTPError, where: string, target: FtpTarget): string {
  const said = `${error.code} ${error.message.replace(/^\d{3}[ -]?/, '').trim()}`.slice(0, 300);
  if (error.code === 530 || error.code === 331 || error.code === 332)
    return `Authentication failed at ${where}: check the username and password (the server said ${said})`;
  if (error.code === 534 || ((error.code === 502 || error.code === 504) && target.protocol === 'FTPS'))
    return `The FTP server at ${where} does not offer TLS (FTPS); nothing was sent (the server said ${said})`;
  if (error.code === 552 || error.code === 452)
    return `The FTP server at ${where} has no room for the file (the server said ${said})`;
  if (error.code === 550 || error.code === 553 || error.code === 450)
    return `The FTP server at ${where} refused to write in ${target.remoteDirectory} (missing or not permitted; the server said ${said})`;
  return `The FTP server at ${where} answered ${said}`;
}

/** Uploads the file to the directory; never throws for what the server or the network does. */
export async function deliverByFtp(
  target: FtpTarget,
  file: DeliveryFile,
  options: FtpOptions,
): Promise<DeliveryOutcome> {
  const where = `${target.host}:${target.port}`;
  if (!hostAllowed(options.allowedHosts, target.host)) return failed('ftp', hostNotAllowedReason(where));
  const timeoutMs = options.timeoutMs ?? FTP_TIMEOUT_MS;
  const client = new Client(timeoutMs);
  const remotePath = posix.join(target.remoteDirectory, file.fileName);
  const temporary = `${file.fileName}.part`;
  let uploading = false;
  try {
    await client.access({
      host: target.host,
      port: target.port,
      user: target.username,
      password: target.password,
      secure: target.protocol === 'FTPS',
      ...(target.protocol === 'FTPS' && options.ca ? { secureOptions: { ca: options.ca } } : {}),
    });
    // Made one level at a time where missing, and entered.
    await client.ensureDir(target.remoteDirectory);
    uploading = true;
    await client.uploadFrom(openContent(file), temporary);
    try {
      await client.rename(temporary, file.fileName);
    } catch {
      // A file of the same name (an earlier delivery) is replaced: servers that refuse to rename
      // over it get it removed first.
      await client.remove(file.fileName, true);
      await client.rename(temporary, file.fileName);
    }
    return delivered('ftp', `${target.protocol.toLowerCase()}://${where}${remotePath}`);
  } catch (error) {
    if (uploading && !client.closed) await client.remove(temporary, true).catch(() => undefined);
    if (error instanceof FTPError) return failed('ftp', describeFtpReply(error, where, target));
    const network = describeNetworkError(error, where, timeoutMs / 1000);
    return failed('ftp', network ?? `The FTP delivery to ${where} failed: ${errorMessage(error)}`);
  } finally {
    client.close();
  }
}
