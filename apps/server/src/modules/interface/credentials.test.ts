import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseAesKey } from '../../config.js';
import { decryptCredentials, encryptCredentials } from './credentials.js';

describe('interface route credentials at rest', () => {
  const key = randomBytes(32);

  it('round-trip a password and a private key with passphrase, never as plain text', () => {
    for (const credentials of [
      { password: 'p@ss' },
      { privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----', passphrase: 'x' },
    ]) {
      const stored = encryptCredentials(key, 'cebd-in', credentials);
      expect(stored).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(stored).not.toContain('p@ss');
      expect(decryptCredentials(key, 'cebd-in', stored)).toEqual(credentials);
    }
  });

  it('do not decrypt on another route (the route id is authenticated data) or with another key', () => {
    const stored = encryptCredentials(key, 'cebd-in', { password: 'p' });
    // The id's case does not matter: route ids are unique regardless of case.
    expect(decryptCredentials(key, 'CEBD-IN', stored)).toEqual({ password: 'p' });
    expect(() => decryptCredentials(key, 'other-route', stored)).toThrow();
    expect(() => decryptCredentials(randomBytes(32), 'cebd-in', stored)).toThrow();
  });
});

describe('INTERFACE_CREDENTIALS_KEY', () => {
  it('takes 32 bytes as hex or base64, nothing else', () => {
    const bytes = randomBytes(32);
    expect(parseAesKey(undefined)).toBeUndefined();
    expect(parseAesKey('')).toBeUndefined();
    expect(parseAesKey(bytes.toString('hex'))).toEqual(bytes);
    expect(parseAesKey(bytes.toString('base64'))).toEqual(bytes);
    expect(parseAesKey(bytes.toString('base64url'))).toEqual(bytes);
    expect(() => parseAesKey('too-short')).toThrow(/INTERFACE_CREDENTIALS_KEY/);
    expect(() => parseAesKey(randomBytes(16).toString('hex'))).toThrow(/INTERFACE_CREDENTIALS_KEY/);
  });
});
