-- Background job runs (issue 8 item 2, ARCHITECTURE.md "Background jobs"). pg-boss (schema pgboss,
-- installed by the job runner itself) holds the queue; this table holds what screens follow: one row
-- per run with its status, progress and last message, in the area that queued it. The pg-boss job of
-- a run carries the same id, so a retry of the job updates the same row.
CREATE TABLE job_run (
  id uuid PRIMARY KEY,
  tenant uuid NOT NULL,
  name text NOT NULL,
  -- contracts JOB_STATUSES: queued -> running -> success, or failure (an attempt failed and will be
  -- retried) -> running ... -> dead (the retries are spent and the job is in its dead-letter queue).
  status text NOT NULL DEFAULT 'queued'
    CONSTRAINT job_run_status CHECK (status IN ('queued', 'running', 'success', 'failure', 'dead')),
  progress numeric NOT NULL DEFAULT 0 CONSTRAINT job_run_progress CHECK (progress >= 0 AND progress <= 1),
  message text,
  -- The file the run works on, when it has one (a time-series upload's data-log entry).
  data_log_id bigint REFERENCES data_log (id) ON DELETE SET NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- Who queued it, with the roles held in the area then: the worker acts as this actor.
  username text NOT NULL,
  roles text[] NOT NULL DEFAULT '{}',
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
-- An area's runs newest first (a later job list); the runs of one data-log entry.
CREATE INDEX job_run_tenant_created_idx ON job_run (tenant, created_at DESC);
CREATE INDEX job_run_data_log_idx ON job_run (data_log_id) WHERE data_log_id IS NOT NULL;

SELECT rw_isolate_by_area('job_run');
