-- Allocation as sums (issue 19 item 3). combine, shunting-and-stabling and energy-outside-train-run
-- wrote a copy of every allocatable 5-minute record (allocated_energy, 0160: a month of 1,000 units
-- ~9 million rows) although everything after them reads hours: price-and-supply and settlement sum
-- per paying organisation, grid area and hour. They now write those sums, at the grain the next
-- steps read, and the record itself stays once in the record table (modules/processing/allocated-energy.ts).
--
-- One row holds the records of one consumption point that went to the same payer in the same way
-- (category, train run, organisation and payer kind, traction unit, grid and price area) within one
-- UTC hour (hour_start: the hour of the record's period, date_trunc('hour', period_end - 1 us),
-- as price-and-supply buckets), and that follow each other without a gap: record k ends 5 minutes
-- after record k - 1 (an island). first_period_end and last_period_end bound it. Because an island
-- has no gap, the records of a consumption point whose period end lies in [first, last] are exactly
-- the row's records, and the islands of one point never overlap. That is what identifies a sum's
-- records without storing them: the traceability (settlement service `settlementRecords`), the
-- later steps' "not allocated yet" (modules/processing/allocated-energy.ts `ALLOCATED_RECORD`) and the
-- statistics' lag all join the record table to this one by consumption point and that range. A
-- day of a unit is a handful of islands per hour (usually one), against twelve records per hour.
CREATE TABLE allocated_energy_hourly (
  tenant uuid NOT NULL,
  hour_start timestamptz NOT NULL,
  category text NOT NULL CONSTRAINT allocated_energy_hourly_category CHECK (
    category IN ('train-run', 'shunting-and-stabling', 'energy-outside-train-run')
  ),
  -- The organisation that pays: the run's railway undertaking, or the unit's vehicle keeper.
  organisation_uuid uuid,
  -- 'ru' or 'vehicle-keeper': which of the two the organisation is.
  payer text NOT NULL CONSTRAINT allocated_energy_hourly_payer CHECK (payer IN ('ru', 'vehicle-keeper')),
  consumption_point_uuid uuid NOT NULL,
  traction_unit_uuid uuid NOT NULL,
  -- The run the energy belongs to (train-run), or the run it was attributed by (the run before or
  -- after, for the other categories; NULL when none).
  train_run_id bigint,
  grid_area_uuid uuid,
  price_area_uuid uuid,
  -- Sums over the records (kWh), and how many.
  active_consumed numeric NOT NULL,
  active_regenerated numeric NOT NULL,
  records integer NOT NULL CONSTRAINT allocated_energy_hourly_records CHECK (records > 0),
  first_period_end timestamptz NOT NULL,
  last_period_end timestamptz NOT NULL,
  CONSTRAINT allocated_energy_hourly_range CHECK (first_period_end <= last_period_end),
  -- The run that wrote the row (no foreign key: see 0170).
  procedure_result_id bigint,
  allocated_at timestamptz NOT NULL DEFAULT now()
);
-- Every writer deletes and reads its chunk by hour, every reader selects hours; the consumption
-- point second serves the record-to-sum joins (a point's islands of an hour).
CREATE INDEX allocated_energy_hourly_hour_idx ON allocated_energy_hourly (tenant, hour_start, consumption_point_uuid);
-- consumption-factor sums a month's runs' energy by run.
CREATE INDEX allocated_energy_hourly_run_idx ON allocated_energy_hourly (tenant, train_run_id)
  WHERE train_run_id IS NOT NULL;
-- The dashboard's uniqueCPIDs (0200 had the same on allocated_energy).
CREATE INDEX allocated_energy_hourly_allocated_idx ON allocated_energy_hourly (tenant, allocated_at);
SELECT rw_isolate_by_area('allocated_energy_hourly');

-- The existing allocation, summed into islands as the steps now write them (the records' own
-- rows: a record not allocated breaks an island, because the next allocated one is then more
-- than 5 minutes later).
INSERT INTO allocated_energy_hourly
       (tenant, hour_start, category, organisation_uuid, payer, consumption_point_uuid, traction_unit_uuid,
        train_run_id, grid_area_uuid, price_area_uuid, active_consumed, active_regenerated, records,
        first_period_end, last_period_end, procedure_result_id, allocated_at)
SELECT tenant, hour_start, category, organisation_uuid, payer, consumption_point_uuid, traction_unit_uuid,
       train_run_id, grid_area_uuid, price_area_uuid, sum(active_consumed), sum(active_regenerated), count(*),
       min(period_end), max(period_end), max(procedure_result_id), max(allocated_at)
  FROM (SELECT a.*, date_trunc('hour', a.period_end - interval '1 microsecond', 'UTC') AS hour_start,
               a.period_end - interval '5 minutes' * row_number() OVER (
                 PARTITION BY a.tenant, a.consumption_point_uuid,
                              date_trunc('hour', a.period_end - interval '1 microsecond', 'UTC'),
                              a.category, a.organisation_uuid, a.payer, a.traction_unit_uuid, a.train_run_id,
                              a.grid_area_uuid, a.price_area_uuid
                 ORDER BY a.period_end) AS island
          FROM allocated_energy a) x
 GROUP BY tenant, consumption_point_uuid, hour_start, category, organisation_uuid, payer, traction_unit_uuid,
          train_run_id, grid_area_uuid, price_area_uuid, island;

DROP TABLE allocated_energy;
