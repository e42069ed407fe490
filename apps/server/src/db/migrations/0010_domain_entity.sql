-- Versioned master data (DOMAIN.md "Master data is versioned").
-- An entity is a uuid of one kind in one tenant; its attributes live in segments over validity
-- ranges [start, end). History is never overwritten: a change marks the segments it replaces as
-- superseded (kept for the audit trail) and inserts new ones. Only current segments
-- (superseded_at IS NULL) take part in the constraints below.

CREATE TABLE entity (
  uuid uuid PRIMARY KEY,
  tenant uuid NOT NULL,
  type text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL
);
CREATE INDEX entity_tenant_type_idx ON entity (tenant, type);

CREATE TABLE entity_segment (
  id bigserial PRIMARY KEY,
  entity_uuid uuid NOT NULL REFERENCES entity (uuid) ON DELETE CASCADE,
  tenant uuid NOT NULL,
  type text NOT NULL,
  valid tstzrange NOT NULL,
  name text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  state text NOT NULL DEFAULT 'ACTIVE',
  comments text,
  attributes jsonb NOT NULL DEFAULT '{}'::jsonb,
  last_modified timestamptz NOT NULL DEFAULT now(),
  last_modified_by text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  superseded_at timestamptz,
  CONSTRAINT entity_segment_valid_not_empty CHECK (NOT isempty(valid)),
  -- The database itself keeps the current segments of one entity from overlapping.
  CONSTRAINT entity_segment_no_overlap EXCLUDE USING gist (entity_uuid WITH =, valid WITH &&)
    WHERE (superseded_at IS NULL),
  -- A name belongs to one entity per tenant and kind (uniquename); the service checks first to
  -- answer with the spec's message, this keeps concurrent writers honest.
  CONSTRAINT entity_segment_unique_name EXCLUDE USING gist
    (tenant WITH =, type WITH =, (lower(name)) WITH =, entity_uuid WITH <>)
    WHERE (superseded_at IS NULL)
);

-- Traction units: one EVN per tenant; organisations: one orgId per tenant; consumption points: one CPID.
ALTER TABLE entity_segment ADD CONSTRAINT entity_segment_unique_evn EXCLUDE USING gist
  (tenant WITH =, (attributes ->> 'evn') WITH =, entity_uuid WITH <>)
  WHERE (superseded_at IS NULL AND type = 'tractionunit');
ALTER TABLE entity_segment ADD CONSTRAINT entity_segment_unique_orgid EXCLUDE USING gist
  (tenant WITH =, (attributes ->> 'orgId') WITH =, entity_uuid WITH <>)
  WHERE (superseded_at IS NULL AND type = 'organisation');
ALTER TABLE entity_segment ADD CONSTRAINT entity_segment_unique_cpid EXCLUDE USING gist
  (tenant WITH =, (attributes ->> 'cpid') WITH =, entity_uuid WITH <>)
  WHERE (superseded_at IS NULL AND type = 'consumptionpoint');

-- Lists and "latest segment per entity": current segments of one kind in a tenant, newest first.
CREATE INDEX entity_segment_current_idx ON entity_segment (tenant, type, entity_uuid, upper(valid) DESC)
  WHERE superseded_at IS NULL;
-- Versions and history of one entity.
CREATE INDEX entity_segment_entity_idx ON entity_segment (entity_uuid, lower(valid));
-- The hot fleet query: consumption points by their traction unit, traction units by owner.
CREATE INDEX entity_segment_cp_tu_idx ON entity_segment (tenant, (attributes ->> 'tractionUnitRef'))
  WHERE superseded_at IS NULL AND type = 'consumptionpoint';
CREATE INDEX entity_segment_tu_owner_idx ON entity_segment (tenant, (attributes ->> 'owner'))
  WHERE superseded_at IS NULL AND type = 'tractionunit';
-- like-search on names.
CREATE INDEX entity_segment_name_idx ON entity_segment (tenant, type, lower(name) text_pattern_ops)
  WHERE superseded_at IS NULL;

-- Which organisations a user belongs to in a tenant ("own data" fleet search, exchange-admin rule).
-- Kept here rather than as an app_user column so one user can belong to organisations in several areas.
CREATE TABLE user_organisation (
  tenant uuid NOT NULL,
  username text NOT NULL,
  organisation_uuid uuid NOT NULL REFERENCES entity (uuid) ON DELETE CASCADE,
  PRIMARY KEY (tenant, username, organisation_uuid)
);

-- Instants leave the database as ISO 8601 UTC text, the same on PGlite and PostgreSQL.
CREATE OR REPLACE FUNCTION rw_iso(t timestamptz) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;
