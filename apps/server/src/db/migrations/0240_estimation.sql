-- Estimation of non-metered traffic (DOMAIN.md "Processing" step 5, issue 10 item 1): the energy of
-- each train run without a metered traction unit, factor x gross tonne-km, spread over the run's
-- hours and the grid areas of its track. A chunk (an area day) replaces the rows of the runs of its
-- operating day; price-and-supply reads them by hour as the 'estimated' category.
CREATE TABLE estimated_energy (
  tenant uuid NOT NULL,
  train_run_id bigint NOT NULL,
  operating_day date NOT NULL,
  hour_start timestamptz NOT NULL,
  grid_area_uuid uuid NOT NULL,
  price_area_uuid uuid NOT NULL,
  -- The run's railway undertaking: it pays.
  organisation_uuid uuid NOT NULL,
  energy_kwh numeric NOT NULL,
  -- kWh per gross tonne-km, and where it came from ('trainprofile' or 'trafficcategory').
  factor numeric NOT NULL,
  factor_source text NOT NULL,
  procedure_result_id bigint REFERENCES procedure_result (id) ON DELETE SET NULL,
  estimated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT estimated_energy_key PRIMARY KEY (tenant, hour_start, train_run_id, grid_area_uuid)
);
CREATE INDEX estimated_energy_day_idx ON estimated_energy (tenant, operating_day);
SELECT rw_isolate_by_area('estimated_energy');
