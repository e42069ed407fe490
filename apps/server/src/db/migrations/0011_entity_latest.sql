-- The latest current segment of every entity (greatest end, then greatest start), kept by the
-- database itself: statement-level triggers on entity_segment refresh the rows of the entities a
-- statement touched, whoever wrote (services, Excel import, seeders). Lists over the default time
-- range and the fleet overview read this narrow table instead of picking DISTINCT ON over all
-- segments; the hot fleet fields are stored columns with their own indexes.
CREATE TABLE entity_latest (
  entity_uuid uuid PRIMARY KEY REFERENCES entity (uuid) ON DELETE CASCADE,
  tenant uuid NOT NULL,
  type text NOT NULL,
  segment_id bigint NOT NULL,
  name text NOT NULL,
  active boolean NOT NULL,
  state text NOT NULL,
  valid tstzrange NOT NULL,
  last_modified timestamptz NOT NULL,
  segment_count integer NOT NULL,
  attributes jsonb NOT NULL,
  evn text GENERATED ALWAYS AS (attributes ->> 'evn') STORED,
  owner_ref text GENERATED ALWAYS AS (attributes ->> 'owner') STORED,
  type_ref text GENERATED ALWAYS AS (attributes ->> 'tractionUnitTypeRef') STORED,
  unit_ref text GENERATED ALWAYS AS (attributes ->> 'tractionUnitRef') STORED,
  vkm text GENERATED ALWAYS AS (attributes ->> 'vkm') STORED,
  nvr text GENERATED ALWAYS AS (attributes ->> 'nvr') STORED,
  ems_id text GENERATED ALWAYS AS (attributes ->> 'emsId') STORED
);
CREATE INDEX entity_latest_tenant_type_idx ON entity_latest (tenant, type, evn);
CREATE INDEX entity_latest_owner_idx ON entity_latest (tenant, owner_ref) WHERE type = 'tractionunit';
-- Consumption points of a unit in name order, with what sorting the fleet by VKM or NVR reads.
CREATE INDEX entity_latest_unit_idx ON entity_latest (tenant, unit_ref, name) INCLUDE (vkm, nvr, ems_id)
  WHERE type = 'consumptionpoint';

CREATE OR REPLACE FUNCTION entity_latest_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (SELECT DISTINCT entity_uuid FROM changed_rows),
  current AS (
    SELECT s.*, count(*) OVER (PARTITION BY s.entity_uuid) AS segment_count,
           row_number() OVER (PARTITION BY s.entity_uuid ORDER BY upper(s.valid) DESC, lower(s.valid) DESC) AS rank
    FROM entity_segment s JOIN changed c ON c.entity_uuid = s.entity_uuid
    WHERE s.superseded_at IS NULL
  )
  INSERT INTO entity_latest (entity_uuid, tenant, type, segment_id, name, active, state, valid, last_modified,
                             segment_count, attributes)
  SELECT entity_uuid, tenant, type, id, name, active, state, valid, last_modified, segment_count, attributes
  FROM current WHERE rank = 1
  ON CONFLICT (entity_uuid) DO UPDATE SET
    segment_id = excluded.segment_id, name = excluded.name, active = excluded.active, state = excluded.state,
    valid = excluded.valid, last_modified = excluded.last_modified, segment_count = excluded.segment_count,
    attributes = excluded.attributes;
  DELETE FROM entity_latest l
  WHERE l.entity_uuid IN (SELECT entity_uuid FROM changed_rows)
    AND NOT EXISTS (SELECT 1 FROM entity_segment s WHERE s.entity_uuid = l.entity_uuid AND s.superseded_at IS NULL);
  RETURN NULL;
END $$;

CREATE TRIGGER entity_latest_after_insert AFTER INSERT ON entity_segment
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_latest_refresh();
CREATE TRIGGER entity_latest_after_update AFTER UPDATE ON entity_segment
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_latest_refresh();
