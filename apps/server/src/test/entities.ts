import { randomUUID } from 'node:crypto';
import type { Database } from '../db/client.js';

/**
 * An entity of `type` with one version, written straight into the tables of `tenant` (tests of
 * procedures that read master data without going through the save call): by the owner before a
 * test switches to the app's role, or through db/tenant.ts tenantDatabase after. The version is
 * valid over [from, until) (default: from 2000 on, open). Answers the new uuid.
 */
export async function insertEntity(
  database: Pick<Database, 'query'>,
  tenant: string,
  type: string,
  name: string,
  attributes: Record<string, unknown> = {},
  valid: { from?: string; until?: string | null } = {},
): Promise<string> {
  const uuid = randomUUID();
  await database.query(`INSERT INTO entity (uuid, tenant, type, created_by) VALUES ($1, $2, $3, 'test')`, [
    uuid,
    tenant,
    type,
  ]);
  await database.query(
    `INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, attributes, last_modified_by)
     VALUES ($1, $2, $3, tstzrange($4::timestamptz, $5::timestamptz), $6, $7::jsonb, 'test')`,
    [uuid, tenant, type, valid.from ?? '2000-01-01', valid.until ?? null, name, JSON.stringify(attributes)],
  );
  return uuid;
}

/**
 * The CPIDs of the consumption points of area `tenant` (the fleet seeder's), by name; `limit` of
 * them, or all. Read across areas (`t.allAreas`) or by the owner.
 */
export async function consumptionPointCpids(
  database: Pick<Database, 'query'>,
  tenant: string,
  limit?: number,
): Promise<string[]> {
  const found = await database.query<{ cpid: string }>(
    `SELECT attributes->>'cpid' AS cpid FROM entity_latest
      WHERE tenant = $1 AND type = 'consumptionpoint' ORDER BY name LIMIT $2`,
    [tenant, limit ?? null],
  );
  return found.map((r) => r.cpid);
}
