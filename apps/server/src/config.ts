import { isIP } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllowedHosts, type AllowedHosts } from './modules/interface/allowed-hosts.js';

/** Everything the server reads from its environment, resolved once at start. */
export interface AppConfig {
  port: number;
  host: string;
  /** PGlite data directory (used when databaseUrl is unset); 'memory://' keeps it in memory. */
  dataDir: string;
  /** postgres://... for a real PostgreSQL server. */
  databaseUrl: string | undefined;
  /** The origin (and optional path) browsers use to reach this server, without trailing slash. */
  publicUrl: string;
  /** The OpenID Connect issuer whose tokens the API accepts. */
  oidcIssuer: string;
  /** true when oidcIssuer is the embedded provider mounted under /auth of this server. */
  embeddedIdentityProvider: boolean;
  /** The `aud` every access token must carry. */
  oidcAudience: string;
  /** The sign-in client of the web app at the identity provider. */
  oidcClientId: string;
  /**
   * SEED_DEMO: demo users (password `demo`), fleet, infrastructure and administration data at every
   * start. Default on only for the embedded default (PGlite and the embedded identity provider, a
   * machine someone tries the app on); with DATABASE_URL or an external OIDC_ISSUER it is off
   * unless set, and server.ts warns what it creates when it is set there (`demoSeedOutsideEmbedded`).
   */
  seedDemo: boolean;
  /** With seedDemo: also the demo month of time series (imported after the server listens). */
  seedDemoTimeSeries: boolean;
  logLevel: string;
  /** The built web app (index.html and hashed assets). */
  webDist: string;
  /** Largest workbook the Excel import accepts, in bytes. */
  excelImportMaxFileBytes: number;
  /** Largest time-series file (CEBD, UTILTS, sdv, xlsx, csv, train runs, prices) an upload accepts, in bytes. */
  timeSeriesImportMaxFileBytes: number;
  /** When the automatic SFTP intake runs (cron, UTC): SFTP_INTAKE_CRON, default every five minutes. */
  sftpIntakeCron: string;
  /**
   * Which proxies may set X-Forwarded-For/-Proto/-Host, in Fastify's trustProxy forms: false (none,
   * the default), true (any), a hop count, or addresses/CIDR ranges.
   */
  trustProxy: TrustProxy;
  /** The Vite dev server's origin, accepted as a sign-in redirect only when NODE_ENV=development. */
  devWebOrigin: string | undefined;
  /**
   * INTERFACE_CREDENTIALS_KEY: the AES-256 key of SFTP route credentials (32 bytes, hex or base64).
   * Unset: a key generated once and kept in the database (modules/interface/credentials.ts).
   */
  interfaceCredentialsKey: Buffer | undefined;
  /**
   * INTERFACE_ALLOWED_HOSTS: the host names, name patterns (*.example.org), addresses and CIDR ranges
   * an interface route may name, on save and on every connection (modules/interface/allowed-hosts.ts).
   * Unset: any host. An invalid entry stops the start.
   */
  interfaceAllowedHosts: AllowedHosts | undefined;
  /**
   * Keycloak's admin REST API for user management (modules/user/keycloak-admin.ts), when OIDC_ISSUER
   * names a Keycloak realm and KEYCLOAK_ADMIN_URL, KEYCLOAK_ADMIN_CLIENT_ID and
   * KEYCLOAK_ADMIN_CLIENT_SECRET are set (KEYCLOAK_REALM, else the realm of OIDC_ISSUER). Unset:
   * users live in app_user only (the embedded provider's directory).
   */
  keycloakAdmin: KeycloakAdminConfig | undefined;
  /** NODE_NAME: this process among several on one database (logs, table app_node); default host:port. */
  nodeName: string;
  /**
   * NODE_SWEEP_SECONDS: how often a node looks for what nodes that are gone left under way (their
   * job attempts, uploads, results being queued; start.ts sweepGoneNodes), PostgreSQL only. Default 10.
   */
  nodeSweepSeconds: number;
  /**
   * SMTP_URL: the mail server e-mails (reports to "my email") go through, as
   * smtp://[user:password@]host[:port] (STARTTLS when the server offers it, its certificate checked)
   * or smtps://... (TLS from the start, port 465 by default). Unset (the embedded default): nothing is
   * sent; each message is kept as an .eml file in `sentMailDir` and listed on the administrator's
   * "sent mail" page (modules/delivery/mail.ts).
   */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the sender of every e-mail, an address or `Name <address>`. Default `Railwatt <noreply@<PUBLIC_URL's host>>`. */
  mailFrom: string;
  /**
   * SENT_MAIL_DIR: where messages are kept when SMTP_URL is unset. Default `<DATA_DIR>/sent-mail`
   * (with DATA_DIR=memory://, a folder under the system's temporary directory).
   */
  sentMailDir: string;
  /**
   * REPORT_DELIVERY_ATTEMPTS (default 3) and REPORT_DELIVERY_RETRY_SECONDS (default 30): a scheduled
   * report's failed delivery is tried this many times in all, waiting the pause, then twice it ...
   * between attempts, before its entry is ERROR (modules/reports/delivery.ts).
   */
  scheduledDeliveryRetry: { attempts: number; delayMs: number };
}

export interface KeycloakAdminConfig {
  url: string;
  realm: string;
  clientId: string;
  clientSecret: string;
}

/** The Keycloak admin settings, or undefined when user management stays in app_user. */
export function keycloakAdminConfig(env: Env, oidcIssuer: string, embedded: boolean): KeycloakAdminConfig | undefined {
  const url = env.KEYCLOAK_ADMIN_URL?.trim();
  const clientId = env.KEYCLOAK_ADMIN_CLIENT_ID?.trim();
  const clientSecret = env.KEYCLOAK_ADMIN_CLIENT_SECRET;
  if (embedded || !url || !clientId || !clientSecret) return undefined;
  const realm = env.KEYCLOAK_REALM?.trim() || /\/realms\/([^/]+)$/.exec(oidcIssuer)?.[1];
  if (!realm) throw new Error('KEYCLOAK_REALM is needed when OIDC_ISSUER does not end in /realms/<realm>');
  return { url: trimSlash(url), realm: decodeURIComponent(realm), clientId, clientSecret };
}

export type TrustProxy = boolean | number | string[];

/** The Vite dev server (apps/web/vite.config.ts). */
export const VITE_DEV_ORIGIN = 'http://localhost:5173';

/** When the automatic SFTP intake runs unless SFTP_INTAKE_CRON says otherwise: every five minutes (UTC). */
export const DEFAULT_SFTP_INTAKE_CRON = '*/5 * * * *';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

const parseBoolean = (value: string | undefined, fallback: boolean): boolean => {
  if (value === undefined || value === '') return fallback;
  return !['false', '0', 'no', 'off'].includes(value.trim().toLowerCase());
};

const parsePort = (value: string | undefined, fallback: number): number => {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid PORT: ${value}`);
  return port;
};

type Env = Record<string, string | undefined>;

// proxy-addr's names for address ranges, which Fastify accepts besides addresses and CIDR ranges.
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY as Fastify reads trustProxy: false/true, a hop count, or comma-separated addresses. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const version = isIP(address ?? '');
    const validBits =
      bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 6 ? 128 : 32)) || isIP(bits) === 4;
    if (!(PROXY_RANGE_NAMES.has(entry) || (version && validBits && extra === undefined))) {
      throw new Error(`Invalid TRUST_PROXY entry: ${entry || '(empty)'}`);
    }
  }
  return entries;
}

/** Longest SMTP_URL accepted. */
const MAX_SMTP_URL_LENGTH = 2048;

/**
 * SMTP_URL as nodemailer reads it: smtp: or smtps:, a host, an optional port and credentials;
 * unset or empty: undefined (messages are kept, not sent). Anything else stops the start.
 */
export function parseSmtpUrl(value: string | undefined): string | undefined {
  const text = value?.trim() ?? '';
  if (text === '') return undefined;
  const invalid = (why: string) =>
    new Error(`Invalid SMTP_URL: ${why} (smtp://[user:password@]host[:port] or smtps://...)`);
  if (text.length > MAX_SMTP_URL_LENGTH) throw invalid(`longer than ${MAX_SMTP_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('not a URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw invalid(`the scheme is ${url.protocol}`);
  if (url.hostname === '') throw invalid('no host');
  if (url.pathname !== '' && url.pathname !== '/') throw invalid('a path is not allowed');
  // nodemailer would read options from the query (tls.rejectUnauthorized=false among them): none are.
  if (url.search !== '') throw invalid('query parameters are not read');
  return text;
}

/** A bare address (local@domain, no spaces or angle brackets) or `Name <address>`; bounded. */
const MAIL_ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;

/** MAIL_FROM, or `Railwatt <noreply@host>` with the host of PUBLIC_URL. */
export function parseMailFrom(value: string | undefined, publicUrl: string): string {
  const text = value?.trim() ?? '';
  if (text === '') return `Railwatt <noreply@${new URL(publicUrl).hostname}>`;
  const address = /<([^<>]*)>$/.exec(text)?.[1] ?? text;
  if (text.length > 320 || !MAIL_ADDRESS.test(address) || /[\r\n]/.test(text)) {
    throw new Error(`Invalid MAIL_FROM: ${text.slice(0, 100)} (an address, or Name <address>)`);
  }
  return text;
}

/** SENT_MAIL_DIR, else `<dataDir>/sent-mail`; a memory database keeps its mail under the temporary directory. */
export function sentMailDirectory(value: string | undefined, dataDir: string): string {
  const text = value?.trim() ?? '';
  if (text !== '') return text;
  return dataDir === 'memory://' ? join(tmpdir(), 'railwatt-sent-mail') : join(dataDir, 'sent-mail');
}

const parsePositiveInt = (value: string | undefined, fallback: number): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`Invalid positive integer: ${value}`);
  return n;
};

/** A 256-bit key as 64 hex digits or base64/base64url (43-44 characters); anything else stops the start. */
export function parseAesKey(value: string | undefined): Buffer | undefined {
  const text = value?.trim() ?? '';
  if (text === '') return undefined;
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64url');
  if (key.length !== 32 || !/^[A-Za-z0-9+/_=-]+$/.test(text)) {
    throw new Error('Invalid INTERFACE_CREDENTIALS_KEY: give 32 bytes as 64 hex digits or base64');
  }
  return key;
}

/**
 * The embedded default: no DATABASE_URL and the embedded identity provider. Only here are demo users
 * with a known password seeded unless SEED_DEMO says otherwise; a start on PostgreSQL or behind an
 * external issuer is taken for a real installation.
 */
export const isEmbeddedDefault = (config: Pick<AppConfig, 'databaseUrl' | 'embeddedIdentityProvider'>): boolean =>
  !config.databaseUrl && config.embeddedIdentityProvider;

/** True when SEED_DEMO was turned on for a real installation: server.ts then warns what it creates. */
export const demoSeedOutsideEmbedded = (
  config: Pick<AppConfig, 'databaseUrl' | 'embeddedIdentityProvider' | 'seedDemo'>,
): boolean => config.seedDemo && !isEmbeddedDefault(config);

/** Reads the configuration from environment variables (see README for the list). */
export function loadConfig(env: Env = process.env): AppConfig {
  const port = parsePort(env.PORT, 8080);
  const publicUrl = trimSlash(env.PUBLIC_URL || `http://localhost:${port}`);
  const embeddedIssuer = `${publicUrl}/auth`;
  const oidcIssuer = trimSlash(env.OIDC_ISSUER || embeddedIssuer);
  const databaseUrl = env.DATABASE_URL || undefined;
  const embeddedIdentityProvider = oidcIssuer === embeddedIssuer;
  const dataDir = env.DATA_DIR || './data';
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl,
    publicUrl,
    oidcIssuer,
    embeddedIdentityProvider,
    oidcAudience: env.OIDC_AUDIENCE || 'railwatt-api',
    oidcClientId: env.OIDC_CLIENT_ID || 'frontend',
    seedDemo: parseBoolean(env.SEED_DEMO, isEmbeddedDefault({ databaseUrl, embeddedIdentityProvider })),
    seedDemoTimeSeries: parseBoolean(env.SEED_DEMO_TIMESERIES, true),
    logLevel: env.LOG_LEVEL || 'info',
    webDist: resolve(REPO_ROOT, env.WEB_DIST || 'apps/web/dist'),
    excelImportMaxFileBytes: parsePositiveInt(env.EXCEL_IMPORT_MAX_FILE_BYTES, 20 * 1024 * 1024),
    timeSeriesImportMaxFileBytes: parsePositiveInt(env.TIME_SERIES_IMPORT_MAX_FILE_BYTES, 100 * 1024 * 1024),
    sftpIntakeCron: env.SFTP_INTAKE_CRON?.trim() || DEFAULT_SFTP_INTAKE_CRON,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    devWebOrigin: env.NODE_ENV === 'development' ? VITE_DEV_ORIGIN : undefined,
    keycloakAdmin: keycloakAdminConfig(env, oidcIssuer, oidcIssuer === embeddedIssuer),
    interfaceCredentialsKey: parseAesKey(env.INTERFACE_CREDENTIALS_KEY),
    interfaceAllowedHosts: parseAllowedHosts(env.INTERFACE_ALLOWED_HOSTS),
    nodeName: env.NODE_NAME?.trim() || `${hostname()}:${port}`,
    nodeSweepSeconds: parsePositiveInt(env.NODE_SWEEP_SECONDS, 10),
    smtpUrl: parseSmtpUrl(env.SMTP_URL),
    mailFrom: parseMailFrom(env.MAIL_FROM, publicUrl),
    sentMailDir: sentMailDirectory(env.SENT_MAIL_DIR, dataDir),
    scheduledDeliveryRetry: {
      attempts: Math.min(parsePositiveInt(env.REPORT_DELIVERY_ATTEMPTS, 3), 10),
      delayMs: parsePositiveInt(env.REPORT_DELIVERY_RETRY_SECONDS, 30) * 1000,
    },
  };
}

/**
 * Configuration for tests: the defaults of an empty environment (memory database, embedded
 * provider on http://localhost:8080/auth, no demo seed, quiet log) with the given overrides.
 * Derived values (issuer, embeddedIdentityProvider) follow an overridden publicUrl unless given.
 */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  const base = loadConfig({ SEED_DEMO: 'false', LOG_LEVEL: 'silent', DATA_DIR: 'memory://' });
  const publicUrl = overrides.publicUrl ?? base.publicUrl;
  const oidcIssuer = overrides.oidcIssuer ?? `${publicUrl}/auth`;
  return {
    ...base,
    publicUrl,
    oidcIssuer,
    embeddedIdentityProvider: overrides.embeddedIdentityProvider ?? oidcIssuer === `${publicUrl}/auth`,
    ...overrides,
  };
}
