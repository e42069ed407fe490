-- The data-log screens (issue 8 items 6-8; calls.md §3 and §7 "Data log, settlement", "Master-data
-- data log"): what the filters read and what the downloads send.
--
-- base_id, train_id: the settlement filter's baseId and trainId (the intake fills them for train
-- runs and settlement bases). response_*: the response file of an export (RES_ download of a
-- metered energy aggregation; RESPONSE of a master-data transfer). mode: MANUAL (a user's upload or
-- export) or SUBSCRIPTION (a transfer pushed by a subscription), shown by the master-data data log.
--
-- The master-data data log has no table of its own: it is the data_log rows whose message type is a
-- master-data transfer (Excel domain and organisation workbooks, masterdata.csv, MASTER_DATA_TRANSFER_*;
-- packages/contracts/src/datalog.ts MASTER_DATA_MESSAGE_TYPES), so one writer (recordFile) and one
-- row-level security policy serve both logs.
ALTER TABLE data_log
  ADD COLUMN base_id text,
  ADD COLUMN train_id text,
  ADD COLUMN response_file_name text,
  ADD COLUMN response_bytes bytea,
  ADD COLUMN response_content_type text,
  ADD COLUMN mode text NOT NULL DEFAULT 'MANUAL';

-- Status filter, newest first (the type filter has data_log_tenant_type_idx).
CREATE INDEX data_log_tenant_status_idx ON data_log (tenant, message_status, log_time_stamp DESC);
CREATE INDEX data_log_tenant_base_idx ON data_log (tenant, base_id) WHERE base_id IS NOT NULL;
CREATE INDEX data_log_tenant_train_idx ON data_log (tenant, train_id) WHERE train_id IS NOT NULL;
-- Consumption point / entity identifier filter, and the observation time filter.
CREATE INDEX data_log_time_series_identifier_idx ON data_log_time_series (entity_identifier, data_log_id);
CREATE INDEX data_log_time_series_range_idx ON data_log_time_series (data_log_id, start_time, end_time);
