-- allocated_energy's keys for combine's speed (issue 9 item 9, bench/combine.ts). combine writes a
-- row per metered record (a month of 1,000 units: ~5.4 million) and every index costs each row an
-- insert into one more btree; the insert was ~60 % of combine's time.
--
-- Every writer (combine, shunting-and-stabling, energy-outside-train-run) deletes and reads its
-- chunk by period (tenant, period_end > start AND period_end <= end), and every reader of the table
-- selects a period (settledConsumption: the result's period; the statistics: allocated_at, its own
-- index of 0200). The key therefore leads with the period: it covers the chunk's delete and reads
-- without the separate period index, and a day's rows land side by side in it instead of scattered
-- over the leaves of every consumption point. The per-record probes (NOT EXISTS by consumption
-- point and period end, ON CONFLICT ON CONSTRAINT allocated_energy_key) give both columns, so the
-- same key answers them. The constraint keeps its name: shunting-and-stabling's upsert names it.
ALTER TABLE allocated_energy DROP CONSTRAINT allocated_energy_key;
ALTER TABLE allocated_energy
  ADD CONSTRAINT allocated_energy_key PRIMARY KEY (tenant, period_end, consumption_point_uuid);
DROP INDEX allocated_energy_period_idx;

-- No query reads allocated_energy by run or by paying organisation alone: settledConsumption and
-- the allocation steps select a period first and filter the rest within it. Pricing and settlement
-- (the next issue) add the index their queries need.
DROP INDEX allocated_energy_run_idx;
DROP INDEX allocated_energy_org_idx;
