-- Tenant isolation by the database (issue 6 §2, ARCHITECTURE.md "Row-level security").
-- After migrations and seed the server switches to railwatt_app (database.useAppRole()): not a
-- superuser and not the tables' owner, so the policies below hold for every statement it runs. A
-- transaction names its area with set_config('railwatt.tenant', <uuid>, true) (db/tenant.ts
-- tenantExecutor); a statement outside such a transaction sees no area data at all. Work that
-- legitimately crosses areas sets railwatt.all_areas = 'on' instead (allAreasExecutor), so it is
-- explicit and greppable.

-- The role is cluster-wide: several databases (test runs) on one server create it once. Two
-- migrations racing on the same server may both see it missing, hence the exception handler.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'railwatt_app') THEN
    CREATE ROLE railwatt_app NOLOGIN NOSUPERUSER NOINHERIT NOCREATEDB NOCREATEROLE NOBYPASSRLS;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL;
END $$;
-- The connecting (owning) user switches to the role with SET ROLE or `-c role=railwatt_app`.
GRANT railwatt_app TO CURRENT_USER;

GRANT USAGE ON SCHEMA public TO railwatt_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO railwatt_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO railwatt_app;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO railwatt_app;
-- Tables of later migrations are usable too (their author still enables RLS if they hold area data).
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO railwatt_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO railwatt_app;
-- Migrations are the owner's business.
REVOKE ALL ON schema_migrations FROM railwatt_app;

-- The area of the current transaction; NULL outside a tenant transaction. STABLE and used as
-- `(SELECT rw_area())` in the policies, so it is an init plan evaluated once per statement.
CREATE OR REPLACE FUNCTION rw_area() RETURNS uuid
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT nullif(current_setting('railwatt.tenant', true), '')::uuid $$;
-- True in a transaction that deliberately works across areas (access lookup, seed, clean-up).
CREATE OR REPLACE FUNCTION rw_all_areas() RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT coalesce(current_setting('railwatt.all_areas', true), '') = 'on' $$;

-- One way to put a table with a tenant column under the area policy; later migrations call it for
-- every new table of area data, so no table gets a policy that differs by accident.
CREATE OR REPLACE FUNCTION rw_isolate_by_area(tbl regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', tbl);
  EXECUTE format(
    'CREATE POLICY %I ON %s USING (tenant = (SELECT rw_area()) OR (SELECT rw_all_areas()))',
    replace(tbl::text, '.', '_') || '_area',
    tbl
  );
END $$;

SELECT rw_isolate_by_area(t::regclass)
  FROM unnest(ARRAY[
    'entity', 'entity_segment', 'entity_latest', 'user_organisation', 'organisation_credential', 'data_log'
  ]) AS t;

-- No tenant column of its own: a row belongs to the area of its data-log entry (whose policy
-- applies inside the EXISTS).
ALTER TABLE data_log_time_series ENABLE ROW LEVEL SECURITY;
ALTER TABLE data_log_time_series FORCE ROW LEVEL SECURITY;
CREATE POLICY data_log_time_series_area ON data_log_time_series
  USING (EXISTS (SELECT 1 FROM data_log d WHERE d.id = data_log_id));

-- Joins under row-level security. A join clause may be used to look rows up by index only when it
-- cannot leak values ahead of the policy (leakproof functions only); a text -> uuid cast
-- (uuid_in) is not leakproof, so `org.entity_uuid = tu.owner_ref::uuid` would scan the whole
-- table per page row. The references the fleet overview joins on are therefore also stored typed,
-- and uuid = uuid is leakproof. rw_uuid gives NULL for a value that is not a uuid (never an error
-- on write).
CREATE OR REPLACE FUNCTION rw_uuid(v text) RETURNS uuid
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN v ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN v::uuid END $$;
GRANT EXECUTE ON FUNCTION rw_uuid(text) TO railwatt_app;
ALTER TABLE entity_latest
  ADD COLUMN owner_uuid uuid GENERATED ALWAYS AS (rw_uuid(attributes ->> 'owner')) STORED,
  ADD COLUMN type_uuid uuid GENERATED ALWAYS AS (rw_uuid(attributes ->> 'tractionUnitTypeRef')) STORED,
  ADD COLUMN unit_uuid uuid GENERATED ALWAYS AS (rw_uuid(attributes ->> 'tractionUnitRef')) STORED;
-- Consumption points of a unit in name order (the fleet page's lateral lookup), typed.
CREATE INDEX entity_latest_unit_uuid_idx ON entity_latest (tenant, unit_uuid, name)
  WHERE type = 'consumptionpoint';

-- A save must not take over a uuid that another area holds (an INSERT ... ON CONFLICT DO NOTHING
-- into entity would otherwise leave the other area's row and hang this area's segments on it). The
-- app role cannot see other areas, so this one question is answered by the owner: which of these
-- uuids exist outside `area`. It reveals existence only, never content.
CREATE OR REPLACE FUNCTION rw_entities_elsewhere(area uuid, uuids uuid[]) RETURNS SETOF uuid
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public
  AS $$ SELECT e.uuid FROM public.entity e WHERE e.uuid = ANY(uuids) AND e.tenant <> area $$;
REVOKE ALL ON FUNCTION rw_entities_elsewhere(uuid, uuid[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION rw_entities_elsewhere(uuid, uuid[]) TO railwatt_app;
