-- price-and-supply's balance tells a missing supply from a supply of 0 kWh: an hour whose grid area
-- has no supply value at all ('supply-missing', base verification's hours without supply) keeps 0 in
-- supply_kwh and no losses, with supply_missing set; a measured 0 is a supply like any other.
ALTER TABLE supply_balance ADD COLUMN supply_missing boolean NOT NULL DEFAULT false;
UPDATE supply_balance SET supply_missing = true WHERE supply_kwh = 0 AND losses_kwh = 0 AND allocated_kwh <> 0;
