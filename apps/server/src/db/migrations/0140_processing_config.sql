-- Processing configurations (calls.md §3 and §7, issue 9 item 2): per area, procedure and scope
-- (the tpa twin) one configuration whose
-- versions cover validity ranges within 1970-01-01 to 2070-01-01 UTC. A change from a date
-- supersedes the versions it overlaps and inserts their remainders and the new version, so history
-- is never overwritten (the same rule as entity_segment, ARCHITECTURE.md "Versioned master data").
CREATE TABLE processing_config (
  uuid uuid PRIMARY KEY,
  tenant uuid NOT NULL,
  procedure text NOT NULL,
  -- '' for the plain configuration, 'tpa' for the tpa twin (settlement, train-preprocessing).
  scope text NOT NULL DEFAULT '',
  CONSTRAINT processing_config_identity UNIQUE (tenant, procedure, scope),
  -- Versions name their configuration with its tenant, so a version cannot sit in another area.
  CONSTRAINT processing_config_uuid_tenant_key UNIQUE (uuid, tenant)
);

CREATE TABLE processing_config_segment (
  id bigserial PRIMARY KEY,
  config_uuid uuid NOT NULL,
  tenant uuid NOT NULL,
  valid tstzrange NOT NULL,
  value jsonb NOT NULL DEFAULT '{}'::jsonb,
  comments text,
  last_modified timestamptz NOT NULL DEFAULT now(),
  last_modified_by text NOT NULL,
  superseded_at timestamptz,
  CONSTRAINT processing_config_segment_config_fkey FOREIGN KEY (config_uuid, tenant)
    REFERENCES processing_config (uuid, tenant) ON DELETE CASCADE,
  CONSTRAINT processing_config_segment_valid_not_empty CHECK (NOT isempty(valid)),
  CONSTRAINT processing_config_segment_within CHECK (
    valid <@ tstzrange('1970-01-01T00:00:00Z', '2070-01-01T00:00:00Z', '[)')
  ),
  -- The current versions of one configuration never overlap.
  CONSTRAINT processing_config_segment_no_overlap EXCLUDE USING gist (config_uuid WITH =, valid WITH &&)
    WHERE (superseded_at IS NULL)
);
CREATE INDEX processing_config_segment_config_idx ON processing_config_segment (config_uuid, lower(valid));

SELECT rw_isolate_by_area(t::regclass) FROM unnest(ARRAY['processing_config', 'processing_config_segment']) AS t;
