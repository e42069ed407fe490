import type { Database } from '../../db/client.js';
import { insertEntity } from '../../test/entities.js';

/**
 * Test data for the settlement procedures (tests only): entities with one open version and time
 * series with values, written straight into the tables of `tenant` (by the owner before the test
 * switches to the app's role, or through db/tenant.ts tenantDatabase after). Each entity's uuid is
 * kept in `ids` under its name.
 */
export function settlementFixtures(database: Pick<Database, 'query'>, tenant: string) {
  const ids: Record<string, string> = {};
  /** An entity of `type` named `name`, valid from 2000 on. */
  const entity = async (type: string, name: string, attributes: Record<string, unknown> = {}) => {
    const uuid = await insertEntity(database, tenant, type, name, attributes);
    ids[name] = uuid;
    return uuid;
  };
  /** A series of `type` for the entity with values [start instant, value, quality (default 127)]. */
  const series = async (
    type: string,
    entityUuid: string,
    values: readonly (readonly [string, number, number?])[],
    resolution = 'PT1H',
  ) => {
    const [s] = await database.query<{ id: number }>(
      `INSERT INTO time_series (tenant, type_name, entity_uuid, entity_kind, identifier, resolution, unit)
       VALUES ($1, $2, $3, 'x', $4, $5, 'x') RETURNING id`,
      [tenant, type, entityUuid, `${type}-${entityUuid}-${resolution}`, resolution],
    );
    for (const [start, value, quality] of values)
      await database.query(
        `INSERT INTO time_series_value (tenant, series_id, start_time, value, quality) VALUES ($1, $2, $3, $4, $5)`,
        [tenant, s!.id, start, value, quality ?? 127],
      );
  };
  return { ids, entity, series };
}
