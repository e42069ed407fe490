import type { AreaKind, MarketFunction, Role, SettlementArea, UserAttributes } from '@railwatt/contracts';
import { isRole } from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { rows, type Executor } from '../domain/sql.js';

export interface UserRecord {
  username: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  passwordHash: string | null;
  enabled: boolean;
}

export interface AreaRecord extends SettlementArea {
  kind: AreaKind;
}

interface UserRow {
  username: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  password_hash: string | null;
  enabled: boolean;
}

interface AreaRow {
  uuid: string;
  name: string;
  kind: AreaKind;
  time_zone: string;
  settlement_partner: boolean;
}

const toArea = (row: AreaRow): AreaRecord => ({
  uuid: row.uuid,
  name: row.name,
  kind: row.kind,
  timeZone: row.time_zone,
  settlementPartner: row.settlement_partner,
});

/** Users are looked up case-insensitively, as identity providers do. */
export async function findUser(database: Database, username: string): Promise<UserRecord | undefined> {
  const [row] = await database.query<UserRow>(
    `SELECT username, first_name, last_name, email, password_hash, enabled
       FROM app_user WHERE lower(username) = lower($1)`,
    [username],
  );
  return row
    ? {
        username: row.username,
        firstName: row.first_name,
        lastName: row.last_name,
        email: row.email,
        passwordHash: row.password_hash,
        enabled: row.enabled,
      }
    : undefined;
}

export async function findMarketFunctions(database: Database, username: string): Promise<MarketFunction[]> {
  const rows = await database.query<{ role: string; area_uuid: string | null }>(
    `SELECT role, area_uuid FROM user_market_function WHERE username = $1 ORDER BY role, area_uuid`,
    [username],
  );
  return rows.flatMap((r) => (isRole(r.role) ? [{ role: r.role, areaId: r.area_uuid }] : []));
}

export async function findArea(database: Database, uuid: string): Promise<AreaRecord | undefined> {
  const [row] = await database.query<AreaRow>(
    `SELECT uuid, name, kind, time_zone, settlement_partner FROM settlement_area WHERE uuid = $1`,
    [uuid],
  );
  return row ? toArea(row) : undefined;
}

export interface RequestAccessRecord {
  /** app_user.enabled of the token's user; null when app_user does not know the user (e.g. Keycloak-only). */
  userEnabled: boolean | null;
  /** The area the tenant header names, when one was asked for and exists. */
  area: AreaRecord | undefined;
}

/**
 * What the access hook reads per request, in one statement: whether the token's user is disabled
 * and the tenant area (findArea). One row always comes back (the VALUES row), so an unknown user
 * or area reads as NULL rather than as no answer.
 */
export async function findRequestAccess(
  database: Database,
  username: string,
  areaUuid: string | undefined,
): Promise<RequestAccessRecord> {
  const [row] = await database.query<Partial<AreaRow> & { user_enabled: boolean | null }>(
    `SELECT (SELECT u.enabled FROM app_user u WHERE lower(u.username) = lower($1)) AS user_enabled,
            a.uuid, a.name, a.kind, a.time_zone, a.settlement_partner
       FROM (VALUES (1)) AS one (x)
       LEFT JOIN settlement_area a ON a.uuid = $2::uuid`,
    [username, areaUuid ?? null],
  );
  return {
    userEnabled: row?.user_enabled ?? null,
    area: row?.uuid ? toArea(row as AreaRow) : undefined,
  };
}

export async function listAreas(database: Database): Promise<AreaRecord[]> {
  const rows = await database.query<AreaRow>(
    `SELECT uuid, name, kind, time_zone, settlement_partner FROM settlement_area ORDER BY name`,
  );
  return rows.map(toArea);
}

// ---------------------------------------------------------------------------------------------
// User management (calls.md §7 "Users"): SQL on app_user, user_market_function, user_organisation
// ---------------------------------------------------------------------------------------------

export interface StoredUser {
  username: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  enabled: boolean;
  attributes: UserAttributes;
}

export interface StoredUserArea {
  areaId: string;
  areaName: string;
  areaKind: AreaKind;
  marketFunctions: Role[];
  organisations: string[];
}

interface StoredUserRow {
  username: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  enabled: boolean;
  attributes: Record<string, unknown> | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const toStoredUser = (row: StoredUserRow): StoredUser => ({
  username: row.username,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  enabled: row.enabled,
  attributes: { title: text(row.attributes?.title), description: text(row.attributes?.description) },
});

const onlyRoles = (values: readonly string[] | null): Role[] => (values ?? []).filter(isRole);

/** One user by name (case-insensitive), without its areas. */
export async function loadStoredUser(ex: Executor, username: string): Promise<StoredUser | undefined> {
  const [row] = await rows<StoredUserRow>(
    ex,
    sql`SELECT username, first_name, last_name, email, enabled, attributes
          FROM app_user WHERE lower(username) = lower(${username})`,
  );
  return row ? toStoredUser(row) : undefined;
}

/** Per area: the user's market functions and organisation relations; plus area-less functions. */
export async function loadUserAreas(
  ex: Executor,
  username: string,
): Promise<{ areas: StoredUserArea[]; globalMarketFunctions: Role[] }> {
  const areaRows = await rows<{
    area_id: string;
    area_name: string;
    area_kind: AreaKind;
    roles: string[] | null;
    organisations: string[] | null;
  }>(
    ex,
    sql`WITH held AS (
          SELECT area_uuid FROM user_market_function WHERE username = ${username} AND area_uuid IS NOT NULL
          UNION
          SELECT tenant FROM user_organisation WHERE lower(username) = lower(${username})
        )
        SELECT a.uuid AS area_id, a.name AS area_name, a.kind AS area_kind,
               ARRAY(SELECT f.role FROM user_market_function f
                      WHERE f.username = ${username} AND f.area_uuid = a.uuid ORDER BY f.role) AS roles,
               ARRAY(SELECT o.organisation_uuid::text FROM user_organisation o
                      WHERE lower(o.username) = lower(${username}) AND o.tenant = a.uuid
                      ORDER BY o.organisation_uuid) AS organisations
          FROM settlement_area a JOIN held h ON h.area_uuid = a.uuid
         ORDER BY a.name`,
  );
  const [global] = await rows<{ roles: string[] | null }>(
    ex,
    sql`SELECT ARRAY(SELECT role FROM user_market_function
                      WHERE username = ${username} AND area_uuid IS NULL ORDER BY role) AS roles`,
  );
  return {
    areas: areaRows.map((r) => ({
      areaId: r.area_id,
      areaName: r.area_name,
      areaKind: r.area_kind,
      marketFunctions: onlyRoles(r.roles),
      organisations: r.organisations ?? [],
    })),
    globalMarketFunctions: onlyRoles(global?.roles ?? []),
  };
}

export interface UserFields {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  enabled: boolean;
  attributes: UserAttributes;
}

/** A new user without a password (it gets one through resetPassword). */
export async function insertUser(ex: Executor, username: string, fields: UserFields): Promise<void> {
  await ex.execute(sql`INSERT INTO app_user (username, first_name, last_name, email, enabled, attributes, password_hash)
    VALUES (${username}, ${fields.firstName}, ${fields.lastName}, ${fields.email}, ${fields.enabled},
            ${JSON.stringify(fields.attributes)}::jsonb, NULL)`);
}

export async function updateUser(ex: Executor, username: string, fields: UserFields): Promise<void> {
  await ex.execute(sql`UPDATE app_user SET first_name = ${fields.firstName}, last_name = ${fields.lastName},
      email = ${fields.email}, enabled = ${fields.enabled}, attributes = ${JSON.stringify(fields.attributes)}::jsonb
    WHERE username = ${username}`);
}

/** Replaces what the user holds in one area: its market functions and its organisation relations. */
export async function replaceUserArea(
  ex: Executor,
  username: string,
  areaId: string,
  roles: readonly Role[],
  organisations: readonly string[],
): Promise<void> {
  await ex.execute(sql`DELETE FROM user_market_function WHERE username = ${username} AND area_uuid = ${areaId}::uuid`);
  await ex.execute(
    sql`DELETE FROM user_organisation WHERE lower(username) = lower(${username}) AND tenant = ${areaId}::uuid`,
  );
  if (roles.length > 0) {
    await ex.execute(sql`INSERT INTO user_market_function (username, role, area_uuid)
      SELECT ${username}, r, ${areaId}::uuid FROM unnest(${sql.param([...new Set(roles)])}::text[]) AS r`);
  }
  if (organisations.length > 0) {
    await ex.execute(sql`INSERT INTO user_organisation (tenant, username, organisation_uuid)
      SELECT ${areaId}::uuid, ${username}, o FROM unnest(${sql.param([...new Set(organisations)])}::uuid[]) AS o`);
  }
}

/** Sets enabled on the named users (case-insensitive); answers the stored names it touched. */
export async function setUsersEnabled(ex: Executor, usernames: readonly string[], enabled: boolean): Promise<string[]> {
  const updated = await rows<{ username: string }>(
    ex,
    sql`UPDATE app_user SET enabled = ${enabled}
         WHERE lower(username) = ANY (SELECT lower(u) FROM unnest(${sql.param([...usernames])}::text[]) AS u)
     RETURNING username`,
  );
  return updated.map((u) => u.username).sort();
}

export async function setPasswordHash(ex: Executor, username: string, passwordHash: string): Promise<void> {
  await ex.execute(sql`UPDATE app_user SET password_hash = ${passwordHash} WHERE username = ${username}`);
}

/** Which of the given uuids are organisations of the area (any segment still current). */
export async function existingOrganisations(ex: Executor, areaId: string, uuids: readonly string[]): Promise<string[]> {
  if (uuids.length === 0) return [];
  const found = await rows<{ uuid: string }>(
    ex,
    sql`SELECT e.uuid::text AS uuid FROM entity e
         WHERE e.tenant = ${areaId}::uuid AND e.type = 'organisation'
           AND e.uuid = ANY (${sql.param([...uuids])}::uuid[])`,
  );
  return found.map((f) => f.uuid);
}

export interface UserListFilter {
  /** Only users with a function in this area (area-less functions count everywhere); null: all users. */
  tenant: string | null;
  active: boolean;
  inactive: boolean;
  searchString: string;
  page: number;
  size: number;
  sortBy?: string | undefined;
  descendingOrder: boolean;
}

const SORT_COLUMNS: Record<string, SQL> = {
  username: sql`lower(a.username)`,
  firstName: sql`lower(a.first_name)`,
  lastName: sql`lower(a.last_name)`,
  enabled: sql`a.enabled`,
};

const likePattern = (s: string): string => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page of users with their roles (in the tenant, or anywhere) and the total count. */
export async function pageUsers(
  ex: Executor,
  filter: UserListFilter,
): Promise<{ users: (StoredUser & { marketFunctions: Role[] })[]; total: number }> {
  const tenant = filter.tenant;
  const inScope = tenant ? sql`(f.area_uuid = ${tenant}::uuid OR f.area_uuid IS NULL)` : sql`TRUE`;
  const pattern = likePattern(filter.searchString);
  const where = sql`
    ((${filter.active} AND a.enabled) OR (${filter.inactive} AND NOT a.enabled))
    AND (${filter.searchString} = '' OR lower(a.username) LIKE ${pattern}
         OR lower(coalesce(a.first_name, '')) LIKE ${pattern} OR lower(coalesce(a.last_name, '')) LIKE ${pattern})
    AND (${tenant === null} OR EXISTS (SELECT 1 FROM user_market_function f WHERE f.username = a.username AND ${inScope}))`;
  const [count] = await rows<{ total: number | string }>(
    ex,
    sql`SELECT count(*) AS total FROM app_user a WHERE ${where}`,
  );
  const column = filter.sortBy ? SORT_COLUMNS[filter.sortBy] : undefined;
  const order = column
    ? sql`${column} ${filter.descendingOrder ? sql`DESC` : sql`ASC`} NULLS LAST, lower(a.username)`
    : sql`lower(a.username)`;
  const found = await rows<StoredUserRow & { roles: string[] | null }>(
    ex,
    sql`SELECT a.username, a.first_name, a.last_name, a.email, a.enabled, a.attributes,
               ARRAY(SELECT DISTINCT f.role FROM user_market_function f
                      WHERE f.username = a.username AND ${inScope} ORDER BY f.role) AS roles
          FROM app_user a WHERE ${where}
         ORDER BY ${order}
         LIMIT ${filter.size} OFFSET ${filter.page * filter.size}`,
  );
  return {
    users: found.map((r) => ({ ...toStoredUser(r), marketFunctions: onlyRoles(r.roles) })),
    total: Number(count?.total ?? 0),
  };
}

/** uuid -> kind of every area (tenant). */
export async function areaKinds(ex: Executor): Promise<Map<string, AreaKind>> {
  const found = await rows<{ uuid: string; kind: AreaKind }>(
    ex,
    sql`SELECT uuid::text AS uuid, kind FROM settlement_area`,
  );
  return new Map(found.map((a) => [a.uuid, a.kind]));
}
