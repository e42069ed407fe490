-- Pricing and settlement (DOMAIN.md "Processing" steps 7 and 11, issue 10 items 2 and 5): what
-- price-and-supply and settlement write, set-based per chunk (an area day); a re-run of a chunk
-- replaces its rows, as every procedure's writes do (modules/processing/registry.ts).

-- price-and-supply, per grid area and hour: the supply its supply metering points delivered, the
-- energy allocated to organisations in it, and the losses (supply - allocated). The hour's spot
-- price of the grid area's price area (EUR/MWh) and the area's exchange rate (currency per EUR; 1
-- where the area settles in EUR or has no rate) are kept beside them: an auditor reads the price
-- each kWh was charged at from the same row.
CREATE TABLE supply_balance (
  tenant uuid NOT NULL,
  hour_start timestamptz NOT NULL,
  grid_area_uuid uuid NOT NULL,
  price_area_uuid uuid NOT NULL,
  supply_kwh numeric NOT NULL,
  allocated_kwh numeric NOT NULL,
  losses_kwh numeric NOT NULL,
  spot_price_eur_mwh numeric,
  exchange_rate numeric NOT NULL DEFAULT 1,
  procedure_result_id bigint REFERENCES procedure_result (id) ON DELETE SET NULL,
  priced_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT supply_balance_key PRIMARY KEY (tenant, hour_start, grid_area_uuid)
);
SELECT rw_isolate_by_area('supply_balance');

-- price-and-supply, per organisation, grid area, hour and category: the energy (kWh, consumed minus
-- regenerated) and what it costs in the area's currency. category: 'metered' (allocated_energy of
-- every allocation category), 'estimated' and 'other' (the estimation procedures, issue 10 item 1),
-- 'losses' (the organisation's pro-rata share of the grid area's losses in the hour, times the
-- configuration's lossSharePercent). price is per MWh in the area's currency.
CREATE TABLE priced_energy (
  tenant uuid NOT NULL,
  hour_start timestamptz NOT NULL,
  grid_area_uuid uuid NOT NULL,
  price_area_uuid uuid NOT NULL,
  organisation_uuid uuid NOT NULL,
  category text NOT NULL CONSTRAINT priced_energy_category CHECK (
    category IN ('metered', 'estimated', 'other', 'losses')
  ),
  energy_kwh numeric NOT NULL,
  price numeric,
  cost numeric,
  procedure_result_id bigint REFERENCES procedure_result (id) ON DELETE SET NULL,
  CONSTRAINT priced_energy_key PRIMARY KEY (tenant, hour_start, grid_area_uuid, organisation_uuid, category)
);
-- Settlement and the base verification read an organisation's month.
CREATE INDEX priced_energy_org_idx ON priced_energy (tenant, organisation_uuid, hour_start);
SELECT rw_isolate_by_area('priced_energy');

-- settlement, per result, area day, organisation and price area: the day's energies and costs by
-- category (a result's figures are the sum over its days; a chunk replaces its day's lines).
-- supply = metered + estimated + other + losses: the energy the organisation is billed for.
CREATE TABLE settlement_line (
  tenant uuid NOT NULL,
  procedure_result_id bigint NOT NULL REFERENCES procedure_result (id) ON DELETE CASCADE,
  day date NOT NULL,
  organisation_uuid uuid NOT NULL,
  price_area_uuid uuid NOT NULL,
  metered_kwh numeric NOT NULL DEFAULT 0,
  estimated_kwh numeric NOT NULL DEFAULT 0,
  other_kwh numeric NOT NULL DEFAULT 0,
  losses_kwh numeric NOT NULL DEFAULT 0,
  on_account_kwh numeric NOT NULL DEFAULT 0,
  metered_cost numeric NOT NULL DEFAULT 0,
  estimated_cost numeric NOT NULL DEFAULT 0,
  other_cost numeric NOT NULL DEFAULT 0,
  losses_cost numeric NOT NULL DEFAULT 0,
  on_account_cost numeric NOT NULL DEFAULT 0,
  CONSTRAINT settlement_line_key PRIMARY KEY (tenant, procedure_result_id, day, organisation_uuid, price_area_uuid)
);
SELECT rw_isolate_by_area('settlement_line');
