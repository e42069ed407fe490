-- Fees, taxes and VAT on each settlement line (DOMAIN.md "Processing" step 8, issue 10 item 3), in
-- the area's currency, computed by settlement from the organisation's contract for the price area:
-- grid and energy fees per MWh of the line's supply energy (the fee types' prices valid on the day),
-- the tax category's rate per MWh, and VAT (the VAT category's percentage) on all of it, last.
ALTER TABLE settlement_line
  ADD COLUMN grid_fee_cost numeric NOT NULL DEFAULT 0,
  ADD COLUMN energy_fee_cost numeric NOT NULL DEFAULT 0,
  ADD COLUMN tax_cost numeric NOT NULL DEFAULT 0,
  ADD COLUMN vat_cost numeric NOT NULL DEFAULT 0,
  -- The contract the charges came from (NULL: the organisation has none for the price area: no charges).
  ADD COLUMN contract_uuid uuid;
