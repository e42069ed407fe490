import { describe, expect, it } from 'vitest';
import { hostAllowed, parseAllowedHosts } from './allowed-hosts.js';

describe('INTERFACE_ALLOWED_HOSTS: which hosts an interface route may name', () => {
  it('admits any host when unset or empty', () => {
    expect(parseAllowedHosts(undefined)).toBeUndefined();
    expect(parseAllowedHosts('  ')).toBeUndefined();
    expect(hostAllowed(undefined, '10.0.0.1')).toBe(true);
  });

  it('matches names exactly or below a *. pattern, case and a trailing dot aside', () => {
    const list = parseAllowedHosts(' sftp.partner.net , *.Example.ORG ');
    const allowed = (host: string) => hostAllowed(list, host);
    expect(allowed('sftp.partner.net')).toBe(true);
    expect(allowed('SFTP.Partner.Net.')).toBe(true);
    expect(allowed('a.example.org')).toBe(true);
    expect(allowed('deep.a.example.org')).toBe(true);
    // Not the domain itself, not a look-alike, not a longer name, not a sub-name of an exact entry.
    expect(allowed('example.org')).toBe(false);
    expect(allowed('evil-example.org')).toBe(false);
    expect(allowed('a.example.org.evil.net')).toBe(false);
    expect(allowed('x.sftp.partner.net')).toBe(false);
    expect(allowed('a..example.org')).toBe(false);
  });

  it('matches addresses exactly or by CIDR range (IPv4 and IPv6), and never resolves a name for a range', () => {
    const list = parseAllowedHosts('192.0.2.10, 10.0.0.0/8, fd00::/8, 2001:db8::1');
    const allowed = (host: string) => hostAllowed(list, host);
    expect(allowed('192.0.2.10')).toBe(true);
    expect(allowed('192.0.2.11')).toBe(false);
    expect(allowed('10.200.3.4')).toBe(true);
    expect(allowed('11.0.0.1')).toBe(false);
    expect(allowed('fd12:3456::1')).toBe(true);
    expect(allowed('[2001:db8::1]')).toBe(true);
    expect(allowed('2001:db8::2')).toBe(false);
    // An IPv4 address written as IPv6 is the same address.
    expect(allowed('::ffff:10.1.1.1')).toBe(true);
    // A name is matched by name entries only, even one that resolves into a listed range.
    expect(allowed('localhost')).toBe(false);
    // Other spellings of an address (getaddrinfo reads 167772161 as 10.0.0.1) are names, matching nothing.
    expect(allowed('167772161')).toBe(false);
    expect(allowed('0x0a.0.0.1')).toBe(false);
  });

  it('refuses an entry of no known form, so a typo stops the start instead of allowing nothing or all', () => {
    for (const wrong of [
      '*',
      '*.org',
      'sftp.example.org,',
      'a b.example.org',
      '10.0.0.0/33',
      'fd00::/129',
      '10.0.0.0/8/1',
      'sftp.example.org:22',
      'https://sftp.example.org',
      '*.*.example.org',
      'example.*',
    ]) {
      expect(() => parseAllowedHosts(wrong), wrong).toThrow(/^Invalid INTERFACE_ALLOWED_HOSTS entry: /);
    }
  });
});
