-- Due days (issue 19, ARCHITECTURE.md "Allocated as the days arrive"). A step of the chain that reads
-- what the steps before it wrote (combine, shunting-and-stabling, energy-outside-train-run) keeps the
-- area days it has to process again: a chunk of a step before it (a CEBD file's check, a day's train
-- runs checked, a combine) marks the day for each follower that keeps due days, in its own
-- transaction; a chunk of the follower that processes the whole day deletes the mark as its first
-- statement, so a change committed while it runs marks the day again. A run with option onlyDue (the
-- nightly allocation, the month-end re-check's chain) skips the days neither marked nor processed
-- before (modules/processing/due-days.ts).
CREATE TABLE procedure_due_day (
  tenant uuid NOT NULL,
  procedure_name text NOT NULL,
  -- The area day [day_start, day_end) in the area's time zone (23, 24 or 25 hours).
  day_start timestamptz NOT NULL,
  day_end timestamptz NOT NULL,
  CONSTRAINT procedure_due_day_day CHECK (day_start < day_end),
  -- The first change that marked the day since the procedure last processed it.
  marked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant, procedure_name, day_start)
);

SELECT rw_isolate_by_area('procedure_due_day');

-- "Processed before?" of a day a run with onlyDue finds unmarked: the procedure's chunks by day.
CREATE INDEX procedure_chunk_day_idx ON procedure_chunk (tenant, chunk_start);
