-- Processing runs and their events (issue 9 items 1 and 3, ARCHITECTURE.md "Processing").
--
-- procedure_result: one row per run of a procedure for a period (calls.md §3 "Procedure result").
-- The job `procedure-run` executes it chunk by chunk (an area day each, one transaction each);
-- procedure_chunk records the finished chunks so a retried or resumed run skips them.
CREATE TABLE procedure_result (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() CONSTRAINT procedure_result_uuid_key UNIQUE,
  tenant uuid NOT NULL,
  procedure_name text NOT NULL,
  -- contracts PROCEDURE_RESULT_STATUSES (calls.md §4); a run: initial -> running -> success | failure.
  status text NOT NULL DEFAULT 'initial'
    CONSTRAINT procedure_result_status CHECK (status IN (
      'approved', 'cancelled', 'corrected', 'dismissed', 'failure', 'initial', 'invalid', 'rejected',
      'rerun', 'running', 'success', 'unknown', 'update'
    )),
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  CONSTRAINT procedure_result_period CHECK (period_start < period_end),
  ref_time timestamptz,
  -- [{ uuid, type }] as sent; ref_uuids holds the same uuids typed, for the log's entity filters.
  entity_refs jsonb NOT NULL DEFAULT '[]'::jsonb,
  ref_uuids uuid[] NOT NULL DEFAULT '{}',
  entity_name text,
  progress numeric NOT NULL DEFAULT 0 CONSTRAINT procedure_result_progress CHECK (progress >= 0 AND progress <= 1),
  message text,
  -- The job run executing it; a resumed run points at its newest job.
  job_id uuid REFERENCES job_run (id) ON DELETE SET NULL,
  -- The run this one runs again (rerun of a finished result).
  rerun_of bigint REFERENCES procedure_result (id) ON DELETE SET NULL,
  username text NOT NULL,
  execute_start_time timestamptz NOT NULL DEFAULT now(),
  execute_end_time timestamptz,
  -- One run under way per (area, procedure, period) is a database rule, not only the service's
  -- check: two requests racing both pass the check, the second insert is refused here and
  -- db/constraints.ts answers it 400 process_already_running. An exclusion over the period's range
  -- rather than a unique index on (start, end): an overlapping period (a day inside a running month)
  -- would write the same days, so it is the same scope for this rule.
  CONSTRAINT procedure_result_already_running EXCLUDE USING gist (
    tenant WITH =,
    procedure_name WITH =,
    tstzrange(period_start, period_end) WITH &&
  ) WHERE (status IN ('initial', 'running'))
);
-- The process log: an area's runs of one procedure newest first, by period, by status, by entity.
CREATE INDEX procedure_result_log_idx ON procedure_result (tenant, procedure_name, execute_start_time DESC);
CREATE INDEX procedure_result_period_idx ON procedure_result (tenant, procedure_name, period_start, period_end);
CREATE INDEX procedure_result_status_idx ON procedure_result (tenant, status);
CREATE INDEX procedure_result_refs_idx ON procedure_result USING gin (ref_uuids);
CREATE INDEX procedure_result_job_idx ON procedure_result (job_id) WHERE job_id IS NOT NULL;

SELECT rw_isolate_by_area('procedure_result');

-- The chunks of a run that have committed: written in the chunk's own transaction, so a chunk is
-- either done with its row or not done at all.
CREATE TABLE procedure_chunk (
  procedure_result_id bigint NOT NULL REFERENCES procedure_result (id) ON DELETE CASCADE,
  tenant uuid NOT NULL,
  chunk_start timestamptz NOT NULL,
  chunk_end timestamptz NOT NULL,
  finished_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (procedure_result_id, chunk_start)
);

SELECT rw_isolate_by_area('procedure_chunk');

-- Processing events (calls.md §3 "Events per process"): what a procedure found, with its error code,
-- severity (default HIGH) and number of incidents.
CREATE TABLE processing_event (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant uuid NOT NULL,
  procedure_result_id bigint REFERENCES procedure_result (id) ON DELETE CASCADE,
  -- The chunk that wrote it: running the chunk again replaces its events.
  chunk_start timestamptz,
  process_name text NOT NULL,
  error_code text NOT NULL,
  severity text NOT NULL DEFAULT 'HIGH' CONSTRAINT processing_event_severity CHECK (severity IN ('HIGH', 'MEDIUM', 'LOW')),
  incidents integer NOT NULL DEFAULT 1 CONSTRAINT processing_event_incidents CHECK (incidents >= 0),
  message text,
  entity_identifier text,
  -- The instant the event is about.
  event_time timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- The event monitor: an area's events by time, by process, by code; a run's events.
CREATE INDEX processing_event_time_idx ON processing_event (tenant, event_time DESC);
CREATE INDEX processing_event_process_idx ON processing_event (tenant, process_name, error_code);
CREATE INDEX processing_event_code_idx ON processing_event (tenant, error_code);
CREATE INDEX processing_event_result_idx ON processing_event (procedure_result_id, chunk_start);

SELECT rw_isolate_by_area('processing_event');
