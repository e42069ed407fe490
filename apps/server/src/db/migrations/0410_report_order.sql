-- Ordered reports (issue 20): one row per order, beside the "Ordered report" data-log entry that
-- holds its file (data_log_part) and outcome. The row keeps what the order said (report, format,
-- language, period, refs, parameters, destinations) and what the order resolved when it was taken
-- (the result statuses the orderer's roles read, the organisations it may see), so the report job
-- and a re-order (calls.md §4) make the same report whoever runs them. The refs' names and the
-- start, end and row count are the data-log entry's `reports` fields (calls.md §3).
CREATE TABLE report_order (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant uuid NOT NULL,
  data_log_id bigint NOT NULL REFERENCES data_log (id) ON DELETE CASCADE,
  report_name text NOT NULL CONSTRAINT report_order_name CHECK (report_name ~ '^[a-z0-9-]{1,64}$'),
  format text NOT NULL CONSTRAINT report_order_format CHECK (format IN ('xlsx', 'csv', 'xml')),
  language text NOT NULL CONSTRAINT report_order_language CHECK (language IN ('en', 'da', 'nb', 'sv', 'fi', 'es')),
  zone_id text NOT NULL CONSTRAINT report_order_zone CHECK (length(zone_id) <= 64),
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  CONSTRAINT report_order_period CHECK (period_start < period_end),
  refs jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- kind -> name (organisation, energyusesettlementarea, gridarea, consumptionpoint, tractionunit, operatingday).
  refs_names jsonb NOT NULL DEFAULT '{}'::jsonb,
  parameters jsonb NOT NULL DEFAULT '{}'::jsonb,
  destinations jsonb NOT NULL DEFAULT '[]'::jsonb,
  processing_id bigint,
  ref_time timestamptz,
  statuses text[] NOT NULL DEFAULT '{}',
  -- The organisations the orderer may see; NULL: every organisation (an area-wide role).
  organisation_uuids uuid[],
  username text NOT NULL,
  -- The order this one repeats (a re-order of an ERROR report).
  reorder_of bigint REFERENCES report_order (id) ON DELETE SET NULL,
  started_at timestamptz,
  finished_at timestamptz,
  row_count bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT report_order_entry UNIQUE (data_log_id)
);
CREATE INDEX report_order_tenant_idx ON report_order (tenant, created_at DESC);
SELECT rw_isolate_by_area('report_order');
