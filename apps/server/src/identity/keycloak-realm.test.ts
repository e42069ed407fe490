import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VITE_DEV_ORIGIN } from '../config.js';
import { LOGIN_THROTTLE_DEFAULTS } from './login-throttle.js';

const REALM = join(dirname(fileURLToPath(import.meta.url)), '../../../../deploy/keycloak/railwatt-realm.json');

interface RealmClient {
  clientId: string;
  redirectUris?: string[];
  webOrigins?: string[];
  attributes?: Record<string, string>;
}

describe('Keycloak realm export (deploy/keycloak)', () => {
  const realm = JSON.parse(readFileSync(REALM, 'utf8')) as Record<string, unknown> & { clients: RealmClient[] };

  it('detects brute force like the embedded provider: 5 failures, waits from a minute up to 15, never for ever', () => {
    expect(realm).toMatchObject({
      bruteForceProtected: true,
      permanentLockout: false,
      failureFactor: LOGIN_THROTTLE_DEFAULTS.maxFailuresPerUser,
      waitIncrementSeconds: LOGIN_THROTTLE_DEFAULTS.baseDelayMs / 1000,
      maxFailureWaitSeconds: LOGIN_THROTTLE_DEFAULTS.windowMs / 1000,
      maxDeltaTimeSeconds: LOGIN_THROTTLE_DEFAULTS.windowMs / 1000,
    });
  });

  it('revokes a refresh token once used, so a stolen copy dies at the next refresh', () => {
    expect(realm).toMatchObject({ revokeRefreshToken: true, refreshTokenMaxReuse: 0 });
  });

  it('accepts no development address as redirect or origin of the production client', () => {
    const frontend = realm.clients.find((c) => c.clientId === 'frontend');
    expect(frontend).toBeDefined();
    const addresses = [
      ...(frontend?.redirectUris ?? []),
      ...(frontend?.webOrigins ?? []),
      frontend?.attributes?.['post.logout.redirect.uris'] ?? '',
    ];
    for (const address of addresses) {
      expect(address).not.toMatch(/localhost|127\.0\.0\.1/);
      expect(address.startsWith(VITE_DEV_ORIGIN)).toBe(false);
      if (address.includes('://')) expect(address).toMatch(/^https:\/\//);
    }
  });
});
