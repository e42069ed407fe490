-- Report schedules (issue 20 item 4; product.md §3 "Report schedule", calls.md §7
-- /processing/scheduledreports). One row per schedule of an area: what to make (the report, its refs
-- and parameters, format, language, correction flag), when (frequency, time, day of week or month,
-- and how long after the period's end), where to (one stored destination: the password encrypted,
-- modules/delivery/credentials.ts, for the owner `scheduled_report:<uuid>`) and who it runs as (the
-- owner, whose roles and organisations are read at each run). next_run_at is the next due instant
-- in the area's zone, computed by modules/report-schedules; the runner claims a due row by moving it.
CREATE TABLE report_schedule (
  uuid uuid PRIMARY KEY,
  tenant uuid NOT NULL REFERENCES settlement_area (uuid) ON DELETE CASCADE,
  name text NOT NULL CONSTRAINT report_schedule_name_length CHECK (length(name) BETWEEN 1 AND 200),
  report_name text NOT NULL CONSTRAINT report_schedule_report CHECK (report_name ~ '^[a-z0-9-]{1,64}$'),
  frequency text NOT NULL CONSTRAINT report_schedule_frequency CHECK (frequency IN ('daily', 'weekly', 'monthly')),
  -- The local time of day (HH:MM) in the area's zone.
  time_of_day text NOT NULL CONSTRAINT report_schedule_time CHECK (time_of_day ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  day_of_week smallint CONSTRAINT report_schedule_day_of_week CHECK (day_of_week BETWEEN 1 AND 7),
  day_of_month smallint CONSTRAINT report_schedule_day_of_month CHECK (day_of_month BETWEEN 1 AND 31),
  CONSTRAINT report_schedule_day CHECK (
    (frequency <> 'weekly' OR day_of_week IS NOT NULL) AND (frequency <> 'monthly' OR day_of_month IS NOT NULL)
  ),
  days_after_period smallint NOT NULL DEFAULT 0 CONSTRAINT report_schedule_days_after CHECK (days_after_period BETWEEN 0 AND 31),
  months_after_period smallint NOT NULL DEFAULT 0 CONSTRAINT report_schedule_months_after CHECK (months_after_period BETWEEN 0 AND 12),
  format text NOT NULL CONSTRAINT report_schedule_format CHECK (format IN ('xlsx', 'csv', 'xml')),
  language text NOT NULL CONSTRAINT report_schedule_language CHECK (language IN ('en', 'da', 'nb', 'sv', 'fi', 'es')),
  correction boolean NOT NULL DEFAULT false,
  refs jsonb NOT NULL DEFAULT '[]'::jsonb,
  parameters jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- contracts StoredDeliveryDestination (passwordEncrypted, never answered).
  destination jsonb NOT NULL,
  owner text NOT NULL CONSTRAINT report_schedule_owner CHECK (length(owner) BETWEEN 1 AND 200),
  next_run_at timestamptz NOT NULL,
  last_run_at timestamptz,
  last_data_log_id bigint REFERENCES data_log (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- calls.md §5: 'The schedule report name already exists.' (db/constraints.ts), per area, any case.
CREATE UNIQUE INDEX report_schedule_name_unique ON report_schedule (tenant, lower(name));
CREATE INDEX report_schedule_due_idx ON report_schedule (tenant, next_run_at);
CREATE INDEX report_schedule_report_idx ON report_schedule (tenant, report_name);
SELECT rw_isolate_by_area('report_schedule');

-- A scheduled report's order names its schedule (kept when the schedule is deleted: the stored
-- destination's password decrypts only for that uuid, and a re-order delivers again) and the owner
-- whose address "my email" is.
ALTER TABLE report_order
  ADD COLUMN schedule_uuid uuid,
  ADD COLUMN schedule_owner text CONSTRAINT report_order_schedule_owner CHECK (length(schedule_owner) <= 200);
