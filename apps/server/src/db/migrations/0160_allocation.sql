-- Train preprocessing, combine, shunting-and-stabling and energy-outside-train-run (DOMAIN.md
-- "Processing" steps 2-4, issue 9 item 4): the tables the procedures write, set-based per chunk
-- (an area day); a re-run of a chunk replaces its rows. Pricing and settlement (issue 10) read
-- allocated_energy.

-- train-preprocessing: the checks of each current train run, by operating day. codes holds the
-- contracts PROCESS_EVENT_CODES found ('weight-outside-limits', 'unknown-evn',
-- 'wrong-train-composition', 'duplicate-train-run', 'data-received-too-late'); empty: the run is valid.
CREATE TABLE train_run_check (
  tenant uuid NOT NULL,
  train_run_id bigint NOT NULL,
  operating_day date NOT NULL,
  codes text[] NOT NULL DEFAULT '{}',
  procedure_result_id bigint REFERENCES procedure_result (id) ON DELETE SET NULL,
  checked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant, train_run_id),
  CONSTRAINT train_run_check_run_fkey FOREIGN KEY (train_run_id, tenant)
    REFERENCES train_run (id, tenant) ON DELETE CASCADE
);
CREATE INDEX train_run_check_day_idx ON train_run_check (tenant, operating_day);
SELECT rw_isolate_by_area('train_run_check');

-- Who pays for each metered 5-minute record (one row per cebd_preprocessed record that can be
-- allocated). category: 'train-run' (combine: the record lies in a train run whose composition
-- holds the unit; the run's RU pays), 'shunting-and-stabling' (shunting-and-stabling: near a run of
-- the unit, that run's RU pays), 'energy-outside-train-run' (energy-outside-train-run: the rest; the
-- RU of the unit's previous run within the configured time limit, else the vehicle keeper).
-- Combine replaces every row of its chunk (all categories): the two later steps then run again for
-- the same period (the processing chain, contracts PROCESSING_CHAIN).
CREATE TABLE allocated_energy (
  tenant uuid NOT NULL,
  consumption_point_uuid uuid NOT NULL,
  period_end timestamptz NOT NULL,
  traction_unit_uuid uuid NOT NULL,
  grid_area_uuid uuid,
  price_area_uuid uuid,
  -- kWh of the record (copied from cebd_preprocessed: pricing reads one table).
  active_consumed numeric NOT NULL DEFAULT 0,
  active_regenerated numeric NOT NULL DEFAULT 0,
  category text NOT NULL CONSTRAINT allocated_energy_category CHECK (
    category IN ('train-run', 'shunting-and-stabling', 'energy-outside-train-run')
  ),
  -- The run the energy belongs to (train-run), or the run it was attributed by (the run before or
  -- after, for the other categories; NULL when none).
  train_run_id bigint,
  -- The organisation that pays: the run's railway undertaking, or the unit's vehicle keeper.
  organisation_uuid uuid,
  -- 'ru' or 'vehicle-keeper': which of the two the organisation is.
  payer text NOT NULL CONSTRAINT allocated_energy_payer CHECK (payer IN ('ru', 'vehicle-keeper')),
  procedure_result_id bigint REFERENCES procedure_result (id) ON DELETE SET NULL,
  allocated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT allocated_energy_key PRIMARY KEY (tenant, consumption_point_uuid, period_end)
);
CREATE INDEX allocated_energy_period_idx ON allocated_energy (tenant, period_end);
CREATE INDEX allocated_energy_run_idx ON allocated_energy (tenant, train_run_id) WHERE train_run_id IS NOT NULL;
CREATE INDEX allocated_energy_org_idx ON allocated_energy (tenant, organisation_uuid, period_end);
SELECT rw_isolate_by_area('allocated_energy');

-- Delayed tasks (shunting-and-stabling's "delayedtasks" page, GET /eventlog/delayed-tasks/count,
-- POST /processing/shunting-and-stabling/run-delayed-task): work a procedure put off until it can
-- be judged (energy whose next or previous run may still be reported), due at due_at.
-- destination_uri names where the task goes (the procedure's name).
CREATE TABLE delayed_task (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant uuid NOT NULL,
  destination_uri text NOT NULL,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  CONSTRAINT delayed_task_period CHECK (period_start < period_end),
  due_at timestamptz NOT NULL,
  reason text NOT NULL,
  status text NOT NULL DEFAULT 'waiting' CONSTRAINT delayed_task_status CHECK (
    status IN ('waiting', 'started', 'done', 'cancelled')
  ),
  -- The run that put it off, and the run that took it up.
  procedure_result_id bigint REFERENCES procedure_result (id) ON DELETE SET NULL,
  started_result_id bigint REFERENCES procedure_result (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX delayed_task_due_idx ON delayed_task (tenant, destination_uri, status, due_at);
SELECT rw_isolate_by_area('delayed_task');
