import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SFTP_INTAKE_CRON,
  demoSeedOutsideEmbedded,
  isEmbeddedDefault,
  loadConfig,
  parseTrustProxy,
  VITE_DEV_ORIGIN,
} from './config.js';

describe('configuration from the environment', () => {
  it('limits Excel imports to 20 MB unless EXCEL_IMPORT_MAX_FILE_BYTES says otherwise', () => {
    expect(loadConfig({}).excelImportMaxFileBytes).toBe(20 * 1024 * 1024);
    expect(loadConfig({ EXCEL_IMPORT_MAX_FILE_BYTES: '5000000' }).excelImportMaxFileBytes).toBe(5_000_000);
  });

  it('refuses a size limit that is not a positive whole number, rather than ignoring it', () => {
    expect(() => loadConfig({ EXCEL_IMPORT_MAX_FILE_BYTES: 'lots' })).toThrow(/Invalid positive integer/);
    expect(() => loadConfig({ EXCEL_IMPORT_MAX_FILE_BYTES: '-1' })).toThrow(/Invalid positive integer/);
  });

  it('runs the automatic SFTP intake every five minutes unless SFTP_INTAKE_CRON says otherwise', () => {
    expect(DEFAULT_SFTP_INTAKE_CRON).toBe('*/5 * * * *');
    expect(loadConfig({}).sftpIntakeCron).toBe('*/5 * * * *');
    expect(loadConfig({ SFTP_INTAKE_CRON: '0 * * * *' }).sftpIntakeCron).toBe('0 * * * *');
    expect(loadConfig({ SFTP_INTAKE_CRON: '  15 6 * * 1-5 ' }).sftpIntakeCron).toBe('15 6 * * 1-5');
    // Set but empty (a blank line in an env file) is the default, not an empty schedule.
    expect(loadConfig({ SFTP_INTAKE_CRON: ' ' }).sftpIntakeCron).toBe('*/5 * * * *');
  });

  it('trusts forwarded headers only when TRUST_PROXY says so, in the forms Fastify accepts', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('TRUE')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.1, 192.168.0.0/16,::1,loopback')).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'loopback',
    ]);
    for (const wrong of ['yes please', '10.0.0.1,', '10.0.0.0/33', 'proxy.example', '1.2.3.4/8/9']) {
      expect(() => loadConfig({ TRUST_PROXY: wrong }), wrong).toThrow(/Invalid TRUST_PROXY entry/);
    }
  });

  it('accepts the Vite dev server as a sign-in redirect only when NODE_ENV is development', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).devWebOrigin).toBe(VITE_DEV_ORIGIN);
    expect(loadConfig({ NODE_ENV: 'production' }).devWebOrigin).toBeUndefined();
    expect(loadConfig({}).devWebOrigin).toBeUndefined();
  });

  it('uses Keycloak for user management only with OIDC_ISSUER on a realm and all KEYCLOAK_ADMIN_* variables', () => {
    const keycloak = {
      OIDC_ISSUER: 'https://sso.example.org/realms/railwatt',
      KEYCLOAK_ADMIN_URL: 'https://sso.example.org/',
      KEYCLOAK_ADMIN_CLIENT_ID: 'railwatt-admin',
      KEYCLOAK_ADMIN_CLIENT_SECRET: 'secret',
    };
    expect(loadConfig(keycloak).keycloakAdmin).toEqual({
      url: 'https://sso.example.org',
      realm: 'railwatt',
      clientId: 'railwatt-admin',
      clientSecret: 'secret',
    });
    expect(loadConfig({ ...keycloak, KEYCLOAK_REALM: 'other' }).keycloakAdmin?.realm).toBe('other');
    expect(loadConfig({ ...keycloak, KEYCLOAK_ADMIN_CLIENT_SECRET: '' }).keycloakAdmin).toBeUndefined();
    // The embedded provider keeps its users in app_user: the variables are ignored.
    const { OIDC_ISSUER: _issuer, ...embedded } = keycloak;
    expect(loadConfig(embedded).keycloakAdmin).toBeUndefined();
    expect(() => loadConfig({ ...keycloak, OIDC_ISSUER: 'https://sso.example.org/oidc' })).toThrow(/KEYCLOAK_REALM/);
  });

  it('restricts interface routes to INTERFACE_ALLOWED_HOSTS when set; an invalid entry stops the start', () => {
    expect(loadConfig({}).interfaceAllowedHosts).toBeUndefined();
    const config = loadConfig({ INTERFACE_ALLOWED_HOSTS: '*.example.org, 192.0.2.0/24' });
    expect(config.interfaceAllowedHosts?.entries).toEqual(['*.example.org', '192.0.2.0/24']);
    expect(() => loadConfig({ INTERFACE_ALLOWED_HOSTS: '*.example.org, 192.0.2.0/40' })).toThrow(
      'Invalid INTERFACE_ALLOWED_HOSTS entry: 192.0.2.0/40',
    );
  });

  it('seeds demo users (password "demo") by default only on the embedded default, and flags them elsewhere', () => {
    const postgres = { DATABASE_URL: 'postgres://railwatt@db/railwatt' };
    const keycloak = { OIDC_ISSUER: 'https://sso.example.org/realms/railwatt' };
    // npm start: PGlite and the embedded provider, someone trying the app.
    const embedded = loadConfig({});
    expect(embedded.seedDemo).toBe(true);
    expect(isEmbeddedDefault(embedded)).toBe(true);
    expect(demoSeedOutsideEmbedded(embedded)).toBe(false);
    // The issuer the embedded provider would have anyway is still the embedded default.
    expect(loadConfig({ OIDC_ISSUER: 'http://localhost:8080/auth/' }).seedDemo).toBe(true);
    // A real installation: PostgreSQL, an external issuer, or both.
    for (const env of [postgres, keycloak, { ...postgres, ...keycloak }]) {
      const config = loadConfig(env);
      expect(config.seedDemo, JSON.stringify(env)).toBe(false);
      expect(demoSeedOutsideEmbedded(config)).toBe(false);
      // Asked for there, it seeds, and server.ts warns what it made.
      const asked = loadConfig({ ...env, SEED_DEMO: 'true' });
      expect(asked.seedDemo).toBe(true);
      expect(demoSeedOutsideEmbedded(asked)).toBe(true);
    }
    // Set but empty (a blank line in an env file) is the default; off is off everywhere.
    expect(loadConfig({ ...postgres, SEED_DEMO: '' }).seedDemo).toBe(false);
    expect(loadConfig({ SEED_DEMO: '' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('keeps e-mails in <DATA_DIR>/sent-mail unless SMTP_URL names a mail server, validated at start', () => {
    const embedded = loadConfig({});
    expect(embedded.smtpUrl).toBeUndefined();
    expect(embedded.sentMailDir).toBe('data/sent-mail');
    expect(loadConfig({ DATA_DIR: '/var/lib/railwatt' }).sentMailDir).toBe('/var/lib/railwatt/sent-mail');
    expect(loadConfig({ SENT_MAIL_DIR: ' /srv/mail ' }).sentMailDir).toBe('/srv/mail');
    expect(loadConfig({ DATA_DIR: 'memory://' }).sentMailDir).toMatch(/railwatt-sent-mail$/);
    expect(loadConfig({ SMTP_URL: ' ' }).smtpUrl).toBeUndefined();
    expect(loadConfig({ SMTP_URL: 'smtp://mailer:p%40ss@mail.example.org:587' }).smtpUrl).toBe(
      'smtp://mailer:p%40ss@mail.example.org:587',
    );
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example.org' }).smtpUrl).toBe('smtps://mail.example.org');
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.org' })).toThrow(/Invalid SMTP_URL: the scheme is http:/);
    expect(() => loadConfig({ SMTP_URL: 'mail.example.org:25' })).toThrow(/Invalid SMTP_URL/);
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.org/?tls.rejectUnauthorized=false' })).toThrow(
      /query parameters are not read/,
    );
    expect(() => loadConfig({ SMTP_URL: `smtp://${'a'.repeat(2050)}.org` })).toThrow(/longer than 2048/);
  });

  it('sends from MAIL_FROM, by default noreply at the host of PUBLIC_URL', () => {
    expect(loadConfig({}).mailFrom).toBe('Railwatt <noreply@localhost>');
    expect(loadConfig({ PUBLIC_URL: 'https://railwatt.example.org' }).mailFrom).toBe(
      'Railwatt <noreply@railwatt.example.org>',
    );
    expect(loadConfig({ MAIL_FROM: 'Reports <reports@example.org>' }).mailFrom).toBe('Reports <reports@example.org>');
    expect(loadConfig({ MAIL_FROM: 'reports@example.org' }).mailFrom).toBe('reports@example.org');
    expect(() => loadConfig({ MAIL_FROM: 'not an address' })).toThrow(/Invalid MAIL_FROM/);
    expect(() => loadConfig({ MAIL_FROM: 'a@b.org\r\nBcc: x@y.org' })).toThrow(/Invalid MAIL_FROM/);
  });
});
