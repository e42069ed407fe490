-- on-account (DOMAIN.md "Processing" step 9, issue 10 item 4): a monthly a-conto amount per
-- organisation and price area, invoiced in advance of the month's final settlement, which then
-- reconciles it (the final bill shows the on-account amount and what remains due).
CREATE TABLE on_account (
  tenant uuid NOT NULL,
  -- The month it is for (its start in the area's calendar).
  month_start timestamptz NOT NULL,
  organisation_uuid uuid NOT NULL,
  price_area_uuid uuid NOT NULL,
  energy_kwh numeric NOT NULL,
  cost numeric NOT NULL,
  -- Where the amount came from: the approved settlement of the month before (its id), or the
  -- on_account_energy parameter.
  based_on_result_id bigint,
  source text NOT NULL CONSTRAINT on_account_source CHECK (source IN ('previous-settlement', 'parameter')),
  procedure_result_id bigint REFERENCES procedure_result (id) ON DELETE SET NULL,
  CONSTRAINT on_account_key PRIMARY KEY (tenant, month_start, organisation_uuid, price_area_uuid)
);
SELECT rw_isolate_by_area('on_account');
