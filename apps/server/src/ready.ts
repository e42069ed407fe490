import type { AddressInfo } from 'node:net';
import type { AppConfig } from './config.js';
import { isEmbeddedDefault } from './config.js';

/**
 * The line `npm start` ends with (issue 18 item 6, "start-up that tells the truth"): written only
 * once the app answers /health over its own socket, so "ready" is never said of a server that
 * cannot be reached yet, and saying how to sign in where the demo users exist.
 */
export function readyLine(
  config: Pick<AppConfig, 'publicUrl' | 'seedDemo' | 'seedDemoTimeSeries' | 'databaseUrl' | 'embeddedIdentityProvider'>,
  demo: { user: string; password: string },
): string {
  const parts = [`Railwatt is ready at ${config.publicUrl}`];
  if (config.seedDemo && isEmbeddedDefault(config)) parts.push(`sign in as ${demo.user} / ${demo.password}`);
  const line = parts.join(' - ');
  return config.seedDemo && config.seedDemoTimeSeries
    ? `${line} (the demo month of time series is loading in the background)`
    : line;
}

/** The loopback address a listening socket is reached at (a wildcard bind answers there too). */
function reachable(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return `127.0.0.1:${address.port}`;
  if (address.address === '::') return `[::1]:${address.port}`;
  return address.family === 'IPv6' ? `[${address.address}]:${address.port}` : `${address.address}:${address.port}`;
}

/** True when GET /health over the server's own socket answers 200 within `timeoutMs`. */
export async function answersHealth(address: AddressInfo | string | null, timeoutMs = 5000): Promise<boolean> {
  if (!address || typeof address === 'string') return false;
  try {
    const res = await fetch(`http://${reachable(address)}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    return res.ok;
  } catch {
    return false;
  }
}
