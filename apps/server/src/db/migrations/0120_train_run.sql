-- Train runs (DOMAIN.md "Files in and out", docs/formats/train-runs.md): what railway undertakings
-- report, by file, as input, correction and delete. Train preprocessing, combine and estimation
-- read the current runs.
--
-- History is never overwritten. A run is identified by (tenant, train_number, operating_day,
-- ru_uuid); of its versions exactly one is current (superseded_at IS NULL). A correction marks the
-- current version superseded (superseded_by_data_log_id names the file) and inserts the new one; a
-- delete does the same and inserts a tombstone (deleted = true, identity only), so "what did we
-- know on date X" stays answerable. An input after a delete supersedes the tombstone.
CREATE TABLE train_run (
  id bigserial PRIMARY KEY,
  tenant uuid NOT NULL,
  train_number text NOT NULL,
  operating_day date NOT NULL,
  -- The organisation entity (a railway undertaking) of the area.
  ru_uuid uuid NOT NULL REFERENCES entity (uuid),
  traffic_category_uuid uuid REFERENCES entity (uuid),
  train_profile_uuid uuid REFERENCES entity (uuid),
  route text[] NOT NULL DEFAULT '{}',
  departure timestamptz,
  arrival timestamptz,
  gross_tonne_km numeric,
  -- The file this version came from, and the file that replaced it.
  data_log_id bigint NOT NULL REFERENCES data_log (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  superseded_at timestamptz,
  superseded_by_data_log_id bigint REFERENCES data_log (id),
  deleted boolean NOT NULL DEFAULT false,
  -- Vehicles name their run with the run's tenant, so a vehicle cannot sit in another area's run.
  CONSTRAINT train_run_id_tenant_key UNIQUE (id, tenant),
  CONSTRAINT train_run_times_check CHECK (arrival > departure),
  CONSTRAINT train_run_gross_tonne_km_check CHECK (gross_tonne_km >= 0),
  -- A live version states the whole run; a tombstone only its identity.
  CONSTRAINT train_run_complete_check CHECK (
    deleted OR (departure IS NOT NULL AND arrival IS NOT NULL AND gross_tonne_km IS NOT NULL
                AND traffic_category_uuid IS NOT NULL)
  ),
  CONSTRAINT train_run_superseded_check CHECK ((superseded_at IS NULL) = (superseded_by_data_log_id IS NULL))
);
-- One current version per run: the store checks first and answers 'Duplicate train run'; this
-- keeps two files stored at once honest.
CREATE UNIQUE INDEX train_run_current_key ON train_run (tenant, train_number, operating_day, ru_uuid)
  WHERE superseded_at IS NULL;
-- Processing reads the current runs of a period (train preprocessing, combine, estimation).
CREATE INDEX train_run_day_idx ON train_run (tenant, operating_day) WHERE superseded_at IS NULL AND NOT deleted;
-- Which runs a file brought or replaced (data-log detail, re-import).
CREATE INDEX train_run_data_log_idx ON train_run (data_log_id);

CREATE TABLE train_run_vehicle (
  train_run_id bigint NOT NULL,
  tenant uuid NOT NULL,
  -- 1 = the front of the train.
  position integer NOT NULL CHECK (position BETWEEN 1 AND 999),
  evn text NOT NULL CHECK (evn ~ '^[0-9]{12}$'),
  -- The traction unit with this EVN in the area when the run was stored; NULL for wagons and for
  -- EVNs the fleet does not know (train preprocessing reports those, the run is kept).
  traction_unit_uuid uuid REFERENCES entity (uuid),
  gross_weight numeric NOT NULL CHECK (gross_weight > 0),
  PRIMARY KEY (train_run_id, position),
  CONSTRAINT train_run_vehicle_evn_key UNIQUE (train_run_id, evn),
  CONSTRAINT train_run_vehicle_run_fkey FOREIGN KEY (train_run_id, tenant)
    REFERENCES train_run (id, tenant) ON DELETE CASCADE
);
-- Combine: the runs a traction unit was part of.
CREATE INDEX train_run_vehicle_unit_idx ON train_run_vehicle (tenant, traction_unit_uuid)
  WHERE traction_unit_uuid IS NOT NULL;
CREATE INDEX train_run_vehicle_evn_idx ON train_run_vehicle (tenant, evn);

SELECT rw_isolate_by_area(t::regclass) FROM unnest(ARRAY['train_run', 'train_run_vehicle']) AS t;
