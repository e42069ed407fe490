import type { AreaKind, MarketFunction, SettlementArea } from '@railwatt/contracts';
import { isRole } from '@railwatt/contracts';
import type { Database } from '../../db/client.js';

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

export async function listAreas(database: Database): Promise<AreaRecord[]> {
  const rows = await database.query<AreaRow>(
    `SELECT uuid, name, kind, time_zone, settlement_partner FROM settlement_area ORDER BY name`,
  );
  return rows.map(toArea);
}
