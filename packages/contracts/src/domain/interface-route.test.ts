import { describe, expect, it } from 'vitest';
import {
  INTERFACE_ROUTE_MESSAGES,
  interfaceRouteCreateSchema,
  interfaceRouteTestSchema,
  interfaceRouteUpdateSchema,
} from './interface-route.js';

const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n';
const base = {
  routeId: 'cebd-in',
  interfaceType: 'CEBD',
  direction: 'IN',
  serverType: 'INTERNAL',
  username: 'railwatt',
  path: 'incoming',
  hostname: 'sftp.example.org',
  credentials: { password: 'secret' },
} as const;

describe('route registration rules (product.md §5)', () => {
  it('forces paths to start with a slash and sends empty description and comment as null', () => {
    const route = interfaceRouteCreateSchema.parse({
      ...base,
      backupPath: 'backup/cebd',
      description: '  ',
      changeComment: '',
    });
    expect(route).toMatchObject({
      path: '/incoming',
      backupPath: '/backup/cebd',
      description: null,
      changeComment: null,
      port: 22,
      enabled: true,
      subFolders: [],
    });
    expect(interfaceRouteCreateSchema.parse({ ...base, path: '/already' }).path).toBe('/already');
  });

  it('allows a backup path only for an INTERNAL server with direction IN', () => {
    for (const other of [{ direction: 'OUT' }, { serverType: 'EXTERNAL' }]) {
      const result = interfaceRouteCreateSchema.safeParse({ ...base, ...other, backupPath: '/backup' });
      expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['backupPath', INTERFACE_ROUTE_MESSAGES.backupPathNotAllowed],
      ]);
      // An empty backup path is no backup path.
      expect(interfaceRouteCreateSchema.safeParse({ ...base, ...other, backupPath: '' }).success).toBe(true);
    }
  });

  it('takes a password, or a PEM private key with a passphrase, and nothing else', () => {
    const withKey = interfaceRouteCreateSchema.parse({ ...base, credentials: { privateKey: KEY, passphrase: 'p' } });
    expect(withKey.credentials).toEqual({ privateKey: KEY.trim(), passphrase: 'p' });
    expect(interfaceRouteCreateSchema.safeParse({ ...base, credentials: { privateKey: 'not a key' } }).success).toBe(
      false,
    );
    expect(interfaceRouteCreateSchema.safeParse({ ...base, credentials: { password: '' } }).success).toBe(false);
    expect(interfaceRouteCreateSchema.safeParse({ ...base, credentials: undefined }).success).toBe(false);
    expect(interfaceRouteUpdateSchema.safeParse({ ...base, credentials: undefined }).success).toBe(true);
  });

  it('refuses route ids that would not read well as a name', () => {
    const result = interfaceRouteCreateSchema.safeParse({ ...base, routeId: 'a b/c' });
    expect(result.error?.issues[0]?.message).toBe(INTERFACE_ROUTE_MESSAGES.routeIdFormat);
  });

  it('tests either a saved route or an unsaved one', () => {
    expect(interfaceRouteTestSchema.safeParse({ routeId: 'x' }).success).toBe(true);
    expect(interfaceRouteTestSchema.safeParse({ route: base }).success).toBe(true);
    expect(interfaceRouteTestSchema.safeParse({}).success).toBe(false);
    expect(interfaceRouteTestSchema.safeParse({ routeId: 'x', route: base }).success).toBe(false);
  });
  it('refuses ".." segments and control characters in paths and folders, and control characters in usernames', () => {
    const issues = (over: Record<string, unknown>) =>
      interfaceRouteCreateSchema
        .safeParse({ ...base, ...over })
        .error?.issues.map((i) => [i.path.join('.'), i.message]);
    const path = INTERFACE_ROUTE_MESSAGES.pathFormat;
    expect(issues({ path: '../etc' })).toEqual([['path', path]]);
    expect(issues({ path: '/in/..' })).toEqual([['path', path]]);
    expect(issues({ path: 'C:\\in\\..\\out' })).toEqual([['path', path]]);
    expect(issues({ path: '/in\tx' })).toEqual([['path', path]]);
    expect(issues({ backupPath: 'b/../../c' })).toEqual([['backupPath', path]]);
    expect(issues({ folder: '..' })).toEqual([['folder', path]]);
    expect(issues({ subFolders: ['ok', 'a\u0085b'] })).toEqual([['subFolders.1', path]]);
    expect(issues({ username: 'rail\u001bwatt' })).toEqual([['username', INTERFACE_ROUTE_MESSAGES.usernameFormat]]);
    // Dots in a name, and a name starting with two dots, are names.
    expect(issues({ path: '/in/..hidden/v1..v2', backupPath: '/b/.x', folder: 'no..rway' })).toBeUndefined();
  });
});
