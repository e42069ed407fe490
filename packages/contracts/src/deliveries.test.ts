import { describe, expect, it } from 'vitest';
import {
  DESTINATION_LIMITS,
  DESTINATION_TYPES,
  deliveryDestinationSchema,
  emailAddressSchema,
  sentMailPageQuerySchema,
} from './deliveries.js';

const ftp = {
  destinationType: 'ftp',
  protocol: 'FTP',
  host: 'ftp.example.org',
  remoteDirectory: '/out',
  username: 'rw',
  password: 'pw',
};
const ok = (value: unknown) => deliveryDestinationSchema.safeParse(value).success;
const messages = (value: unknown) =>
  deliveryDestinationSchema.safeParse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('report destinations (calls.md §3 "Report schedule")', () => {
  it('has the destination types exactly as calls.md writes them', () => {
    expect(DESTINATION_TYPES).toEqual(['my email', 'ftp', 'sftp', 'webservice']);
    expect(ok({ destinationType: 'my email' })).toBe(true);
    expect(ok({ destinationType: 'email' })).toBe(false);
    expect(ok({ destinationType: 'my email', address: 'a@b.org' })).toBe(false);
  });

  it('fills the defaults: FTP on 21, SFTP on 22, the root directory, a leading slash', () => {
    expect(deliveryDestinationSchema.parse({ ...ftp, protocol: undefined, remoteDirectory: undefined })).toEqual({
      ...ftp,
      port: 21,
      remoteDirectory: '/',
    });
    const { protocol: _protocol, ...sftp } = ftp;
    expect(deliveryDestinationSchema.parse({ ...sftp, destinationType: 'sftp', remoteDirectory: 'in/x' })).toEqual({
      destinationType: 'sftp',
      host: 'ftp.example.org',
      port: 22,
      remoteDirectory: '/in/x',
      username: 'rw',
      password: 'pw',
    });
  });

  it('takes FTP or FTPS as the ftp protocol', () => {
    expect(ok({ ...ftp, protocol: 'FTPS' })).toBe(true);
    expect(ok({ ...ftp, protocol: 'SFTP' })).toBe(false);
  });

  it('bounds every field', () => {
    const over = (n: number) => 'a'.repeat(n + 1);
    expect(ok({ ...ftp, host: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}` })).toBe(true);
    expect(ok({ ...ftp, host: over(DESTINATION_LIMITS.host) })).toBe(false);
    expect(ok({ ...ftp, remoteDirectory: `/${'d'.repeat(1023)}` })).toBe(true);
    expect(ok({ ...ftp, remoteDirectory: `/${over(DESTINATION_LIMITS.remoteDirectory)}` })).toBe(false);
    expect(ok({ ...ftp, username: over(DESTINATION_LIMITS.username) })).toBe(false);
    expect(ok({ ...ftp, password: 'p'.repeat(256) })).toBe(true);
    expect(ok({ ...ftp, password: over(DESTINATION_LIMITS.password) })).toBe(false);
    expect(ok({ ...ftp, port: 0 })).toBe(false);
    expect(ok({ ...ftp, port: 65536 })).toBe(false);
    const uri = (n: number) => `https://erp.example.org/${'p'.repeat(n - 'https://erp.example.org/'.length)}`;
    expect(ok({ destinationType: 'webservice', webserviceUri: uri(2048) })).toBe(true);
    expect(ok({ destinationType: 'webservice', webserviceUri: uri(2049) })).toBe(false);
  });

  it('refuses hosts with a port, a path or spaces, and directories that climb out', () => {
    for (const host of ['ftp.example.org:21', 'ftp.example.org/in', 'ftp example.org', 'user@ftp.example.org', ''])
      expect({ host, ok: ok({ ...ftp, host }) }).toEqual({ host, ok: false });
    for (const host of ['192.0.2.10', '2001:db8::10', '[2001:db8::10]', 'FTP.Example.ORG.'])
      expect({ host, ok: ok({ ...ftp, host }) }).toEqual({ host, ok: true });
    expect(messages({ ...ftp, remoteDirectory: '/out/../../etc' })).toEqual([
      'remoteDirectory: A path or folder must not contain ".." segments or control characters',
    ]);
    expect(ok({ ...ftp, username: 'rw\u0000' })).toBe(false);
  });

  it('requires a password for ftp and sftp, and allows a web service without one', () => {
    expect(ok({ ...ftp, password: undefined })).toBe(false);
    expect(ok({ ...ftp, password: '' })).toBe(false);
    expect(ok({ destinationType: 'webservice', webserviceUri: 'https://erp.example.org/in' })).toBe(true);
    expect(
      ok({ destinationType: 'webservice', webserviceUri: 'https://erp.example.org/in', username: 'u', password: 'p' }),
    ).toBe(true);
  });

  it('takes an https:// web service address only, without credentials in it', () => {
    for (const webserviceUri of [
      'http://erp.example.org/in',
      'ftp://erp.example.org/in',
      'https://u:p@erp.example.org/in',
      'not a url',
    ])
      expect({ webserviceUri, ok: ok({ destinationType: 'webservice', webserviceUri }) }).toEqual({
        webserviceUri,
        ok: false,
      });
  });

  it('keeps fields of one type out of another (strict)', () => {
    expect(ok({ ...ftp, webserviceUri: 'https://erp.example.org' })).toBe(false);
    expect(ok({ ...ftp, passwordEncrypted: 'v1.x' })).toBe(false);
  });

  it('validates e-mail addresses', () => {
    expect(emailAddressSchema.safeParse('ru@example.org').success).toBe(true);
    expect(emailAddressSchema.safeParse('ru@').success).toBe(false);
    expect(emailAddressSchema.safeParse(`${'a'.repeat(250)}@example.org`).success).toBe(false);
  });

  it('pages the sent mail newest first by default', () => {
    expect(sentMailPageQuerySchema.parse({})).toMatchObject({
      page: 0,
      size: 20,
      sortBy: 'sentAt',
      descendingOrder: true,
    });
    expect(sentMailPageQuerySchema.safeParse({ sortBy: 'eml_file' }).success).toBe(false);
  });
});
