-- Re-check marks (issue 19 item 2, ARCHITECTURE.md "Checked on arrival, re-checked when master data
-- change"). A CEBD record is checked when its file arrives (cebd-preprocessing limited to the file's
-- consumption points). A later save of master data that can change a past day's placement or codes
-- (a grid or price area redrawn, a consumption point's unit, EMS type or activity, a unit's type or
-- owner, a type's maxPower or positionValidationRules, an EMS type) marks the area days inside the
-- changed validity that hold records of what it touches, in the save's own transaction
-- (modules/processing/cebd-recheck.ts markCebdRecheck). The month-end run (run option onlyDue)
-- re-checks only marked days and days holding unchecked records, and deletes a day's mark in the
-- transaction that checked the day whole.
CREATE TABLE cebd_recheck (
  tenant uuid NOT NULL,
  -- The area day [day_start, day_end) in the area's time zone (23, 24 or 25 hours): its records are
  -- those whose 5-minute period starts in it (period end in (day_start, day_end]).
  day_start timestamptz NOT NULL,
  day_end timestamptz NOT NULL,
  CONSTRAINT cebd_recheck_day CHECK (day_start < day_end),
  -- The first change that marked the day since it was last checked (later ones find it marked).
  reason text NOT NULL,
  marked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant, day_start)
);

SELECT rw_isolate_by_area('cebd_recheck');

-- The month-end run asks per day whether any record is still unchecked: a partial index holds only
-- those (few: a file whose check has not run yet), so the question is one probe, not a scan of the day.
CREATE INDEX cebd_record_unchecked_idx ON cebd_record (tenant, period_end) WHERE checked_at IS NULL;
