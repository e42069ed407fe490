-- The data log (DOMAIN.md "Files in and out"): one entry per file that arrives or leaves, with its
-- outcome and the original bytes, so the file can be downloaded, re-imported or re-exported.
-- Entries are written outside the transaction of the work they describe: a rejected import still
-- leaves its entry.
CREATE TABLE data_log (
  id bigserial PRIMARY KEY,
  tenant uuid NOT NULL,
  log_time_stamp timestamptz NOT NULL DEFAULT now(),
  message_type text NOT NULL,
  -- OK, ERROR, REJECTED, PARTLY_REJECTED, RETRIED ... (calls.md §4 "Message statuses")
  message_status text NOT NULL,
  message_text text,
  file_name text,
  username text,
  destination text,
  file_bytes bytea,
  content_type text
);
-- The data-log screens list a tenant's entries newest first, filtered by type and status.
CREATE INDEX data_log_tenant_time_idx ON data_log (tenant, log_time_stamp DESC);
CREATE INDEX data_log_tenant_type_idx ON data_log (tenant, message_type, log_time_stamp DESC);

-- Per time series carried by a file: its range and value count (calls.md §3 messageLogTimeSeries).
CREATE TABLE data_log_time_series (
  id bigserial PRIMARY KEY,
  data_log_id bigint NOT NULL REFERENCES data_log (id) ON DELETE CASCADE,
  start_time timestamptz,
  end_time timestamptz,
  time_series_type text,
  entity_identifier text,
  values_count integer,
  message text
);
CREATE INDEX data_log_time_series_log_idx ON data_log_time_series (data_log_id);
