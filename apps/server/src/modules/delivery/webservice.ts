import { request as httpRequest, STATUS_CODES, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
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
 * The web service: an HTTPS POST of the file (its bytes as the body, its type as Content-Type, its
 * name in Content-Disposition), certificates checked, with a timeout and a bounded number of
 * attempts. A network failure, a timeout, 408, 425, 429 and 5xx are tried again after a pause that
 * doubles (or the server's Retry-After, up to a minute); any other answer is final. Redirects are not
 * followed: the address named by the destination is the one allowed and the one written to.
 */

export interface WebserviceTarget {
  webserviceUri: string;
  /** HTTP basic authentication, when given. */
  username?: string | undefined;
  password?: string | undefined;
}

export interface WebserviceOptions {
  /** INTERFACE_ALLOWED_HOSTS (config.interfaceAllowedHosts): required, undefined for any host. */
  allowedHosts: AllowedHosts | undefined;
  /** How long the service may stay silent (connecting, while sending, before answering): default 60 s. */
  timeoutMs?: number;
  /** Attempts in all, at least 1: default 3. */
  attempts?: number;
  /** The pause before the second attempt, doubled before each next one: default 5 s. */
  backoffMs?: number;
  /** Trust anchors for the service's certificate instead of the system's (a test's own CA). */
  ca?: string | Buffer;
  /**
   * Plain http:// as well as https://. Off in the product (destinations are https only, the contract
   * refuses anything else); tests of retries and timeouts turn it on for a local server.
   */
  allowPlainHttp?: boolean;
}

export const WEBSERVICE_TIMEOUT_MS = 60_000;
export const WEBSERVICE_ATTEMPTS = 3;
export const WEBSERVICE_BACKOFF_MS = 5_000;
/** The longest Retry-After honoured; a longer one waits this long. */
const MAX_RETRY_AFTER_MS = 60_000;
/** Most attempts a caller may ask for. */
const MAX_ATTEMPTS = 10;

/** Answers that say "try again later". */
const RETRIED_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

type Attempt =
  | { kind: 'answer'; status: number; retryAfterMs: number | null; location: string | null }
  | { kind: 'failure'; reason: string };

/** Content-Disposition with an ASCII fallback and the exact name (RFC 6266 / 5987). */
const disposition = (fileName: string) =>
  `attachment; filename="${fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

function retryAfter(response: IncomingMessage): number | null {
  const header = response.headers['retry-after'];
  if (!header) return null;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : null;
}

/** One POST; resolves with the answer's status or the failure, never rejects. */
function post(url: URL, target: WebserviceTarget, file: DeliveryFile, options: WebserviceOptions): Promise<Attempt> {
  const timeoutMs = options.timeoutMs ?? WEBSERVICE_TIMEOUT_MS;
  const where = `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
  const headers: Record<string, string | number> = {
    'content-type': file.contentType,
    'content-disposition': disposition(file.fileName),
  };
  if (Buffer.isBuffer(file.content)) headers['content-length'] = file.content.length;
  if (target.username !== undefined) {
    const credentials = `${target.username}:${target.password ?? ''}`;
    headers.authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
  }
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    const settle = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      resolve(attempt);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // A fresh connection per attempt (agent: false): nothing of a failed attempt is reused.
    const request = send(url, {
      method: 'POST',
      headers,
      timeout: timeoutMs,
      agent: false,
      ...(url.protocol === 'https:' && options.ca ? { ca: options.ca } : {}),
    });
    request.on('timeout', () => request.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    request.on('error', (error) =>
      settle({
        kind: 'failure',
        reason:
          describeNetworkError(error, where, timeoutMs / 1000) ?? `The POST to ${where} failed: ${errorMessage(error)}`,
      }),
    );
    request.on('response', (response) => {
      // The answer's body is not kept (nor quoted: it is the service's, not ours to show).
      response.resume();
      settle({
        kind: 'answer',
        status: response.statusCode ?? 0,
        retryAfterMs: retryAfter(response),
        location: typeof response.headers.location === 'string' ? response.headers.location : null,
      });
    });
    // A service that answers before taking the whole body (401 at once) ends the upload: not an error.
    pipeline(openContent(file), request).catch(() => undefined);
  });
}

const statusText = (status: number) => `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;

/** POSTs the file, trying again as said above; never throws for what the service or the network does. */
export async function deliverByWebservice(
  target: WebserviceTarget,
  file: DeliveryFile,
  options: WebserviceOptions,
): Promise<DeliveryOutcome> {
  let url: URL;
  try {
    url = new URL(target.webserviceUri);
  } catch {
    return failed('webservice', `The webservice URI ${target.webserviceUri} is not an address`, 0);
  }
  const shown = `${url.origin}${url.pathname}`;
  if (url.protocol !== 'https:' && !(options.allowPlainHttp && url.protocol === 'http:'))
    return failed('webservice', `The webservice URI ${shown} is not https://: nothing was sent`, 0);
  if (url.username || url.password)
    return failed('webservice', 'The webservice URI must not hold a user name or password: nothing was sent', 0);
  const where = `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
  if (!hostAllowed(options.allowedHosts, url.hostname)) return failed('webservice', hostNotAllowedReason(where), 0);
  const attempts = Math.min(Math.max(1, Math.floor(options.attempts ?? WEBSERVICE_ATTEMPTS)), MAX_ATTEMPTS);
  const backoffMs = options.backoffMs ?? WEBSERVICE_BACKOFF_MS;
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const result = await post(url, target, file, options);
    let pauseMs = backoffMs * 2 ** (attempt - 1);
    if (result.kind === 'answer') {
      const { status } = result;
      if (status >= 200 && status < 300)
        return delivered('webservice', `POST ${shown}: ${statusText(status)}`, { attempts: attempt });
      if (status >= 300 && status < 400)
        return failed(
          'webservice',
          `The web service at ${shown} answered ${statusText(status)}, a redirect${result.location ? ` to ${result.location.slice(0, 500)}` : ''}; redirects are not followed: change the webservice URI`,
          attempt,
        );
      if (status === 401 || status === 403)
        return failed(
          'webservice',
          `The web service at ${shown} refused the file: ${statusText(status)} (check the username and password)`,
          attempt,
        );
      if (!RETRIED_STATUSES.has(status))
        return failed('webservice', `The web service at ${shown} refused the file: ${statusText(status)}`, attempt);
      last = `The web service at ${shown} answered ${statusText(status)}`;
      if (result.retryAfterMs !== null) pauseMs = result.retryAfterMs;
    } else {
      last = result.reason;
    }
    if (attempt < attempts) await sleep(pauseMs);
  }
  return failed('webservice', `${last} (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'})`, attempts);
}
