import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveEntities } from '../modules/domain/service.js';
import { rows } from '../modules/domain/sql.js';
import { areaUuid, seedAreas } from '../seed/areas.js';
import { openTestDatabase } from '../test/database.js';
import type { Database } from './client.js';
import { allAreasDatabase, allAreasExecutor, tenantDatabase, tenantExecutor } from './tenant.js';
import { ADMIN_ACTOR, organisationRecord } from '../test/records.js';

const NORWAY = areaUuid('norway');
const FINLAND = areaUuid('finland');
const admin = ADMIN_ACTOR;
const organisation = (name: string, orgId: string) => organisationRecord(name, orgId);

// Row-level security (migration 0070) on PGlite, or on PostgreSQL with TEST_DATABASE_URL: the app's
// role sees an area's rows only in a transaction that names the area.
describe('row-level security', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    await seedAreas(database);
    // Stored as the owner, as the seeders do, before the switch the server makes.
    await database.db.transaction((tx) => saveEntities(tx, NORWAY, admin, [organisation('Norsk AS', '1')]));
    await database.db.transaction((tx) => saveEntities(tx, FINLAND, admin, [organisation('Suomi Oy', '2')]));
    await database.useAppRole();
  });
  afterAll(async () => database?.close());

  it('runs as a role that is neither superuser nor owner and cannot bypass the policies', async () => {
    const [role] = await database.query<{ current_user: string; rolsuper: boolean; rolbypassrls: boolean }>(
      `SELECT current_user, r.rolsuper, r.rolbypassrls FROM pg_roles r WHERE r.rolname = current_user`,
    );
    expect(role).toEqual({ current_user: 'railwatt_app', rolsuper: false, rolbypassrls: false });
  });

  it('an area-less query through a tenant executor sees only that area', async () => {
    // Deliberately no WHERE tenant = ...: the database adds it.
    const forgetful = sql`SELECT name FROM entity_latest ORDER BY name`;
    expect(await rows(tenantExecutor(database, NORWAY), forgetful)).toEqual([{ name: 'Norsk AS' }]);
    expect(await rows(tenantExecutor(database, FINLAND), forgetful)).toEqual([{ name: 'Suomi Oy' }]);
    const segments = await rows<{ tenant: string }>(
      tenantExecutor(database, NORWAY),
      sql`SELECT DISTINCT tenant::text AS tenant FROM entity_segment`,
    );
    expect(segments).toEqual([{ tenant: NORWAY }]);
    // Inside a transaction (and its savepoints) too.
    const nested = await tenantExecutor(database, FINLAND).transaction((tx) =>
      tx.transaction((inner) =>
        rows<{ name: string }>(
          inner,
          sql`SELECT name FROM entity`.append(sql` JOIN entity_latest l ON l.entity_uuid = entity.uuid`),
        ),
      ),
    );
    expect(nested).toEqual([{ name: 'Suomi Oy' }]);
    expect(
      await tenantDatabase(database, NORWAY).query('SELECT name FROM entity_latest WHERE $1::int = 1', [1]),
    ).toEqual([{ name: 'Norsk AS' }]);
  });

  it('sees nothing outside an area transaction, and everything only through the explicit all-areas executor', async () => {
    expect(await database.query('SELECT name FROM entity_latest')).toEqual([]);
    expect(await rows(database.db, sql`SELECT uuid FROM entity`)).toEqual([]);
    const everywhere = await rows<{ name: string }>(
      allAreasExecutor(database),
      sql`SELECT name FROM entity_latest ORDER BY name`,
    );
    expect(everywhere).toEqual([{ name: 'Norsk AS' }, { name: 'Suomi Oy' }]);
    expect(await allAreasDatabase(database).query('SELECT count(*)::int AS n FROM entity')).toEqual([{ n: 2 }]);
  });

  it('refuses to write a row into another area than the transaction names', async () => {
    const write = tenantExecutor(database, NORWAY).execute(
      sql`INSERT INTO data_log (tenant, message_type, message_status) VALUES (${FINLAND}::uuid, 'TEST', 'OK')`,
    );
    await expect(write).rejects.toMatchObject({ cause: expect.objectContaining({ code: '42501' }) });
    // And an area's data-log time series rows follow their entry.
    await tenantExecutor(database, NORWAY).transaction(async (tx) => {
      const [entry] = await rows<{ id: number }>(
        tx,
        sql`INSERT INTO data_log (tenant, message_type, message_status) VALUES (${NORWAY}::uuid, 'TEST', 'OK') RETURNING id`,
      );
      await tx.execute(sql`INSERT INTO data_log_time_series (data_log_id, values_count) VALUES (${entry!.id}, 3)`);
    });
    const series = sql`SELECT values_count FROM data_log_time_series`;
    expect(await rows(tenantExecutor(database, NORWAY), series)).toEqual([{ values_count: 3 }]);
    expect(await rows(tenantExecutor(database, FINLAND), series)).toEqual([]);
  });

  it('keeps the area to its transaction: the next statement on the same connection sees nothing', async () => {
    await rows(tenantExecutor(database, NORWAY), sql`SELECT 1`);
    expect(await database.query(`SELECT current_setting('railwatt.tenant', true) AS area`)).toEqual([
      { area: expect.toSatisfy((v: string | null) => !v) },
    ]);
  });
});
