-- A run's extra params (calls.md §7 "POST /processing/{procedure}/run: query zoneId plus extra
-- params"): what the run chose beyond its period, kept with its result so a retried or resumed
-- attempt runs with the same choice. metered-energy-aggregation keeps {"aggregation": "FIRST"} or
-- {"aggregation": "SECOND"} here (contracts ProcedureRunOptions). Empty for every other procedure.
ALTER TABLE procedure_result ADD COLUMN run_options jsonb NOT NULL DEFAULT '{}'::jsonb;
