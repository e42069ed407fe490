-- The processing chain (contracts PROCESSING_CHAIN, modules/processing/chain.ts, issue 9 item 4):
-- a run the system started names what caused it (the run before it in the chain, or the CEBD file
-- whose arrival made combine run again). NULL: a person started it. The run's final message
-- repeats it, so the process log says why a run nobody asked for is there.
ALTER TABLE procedure_result ADD COLUMN cause text;

-- combine writes a row per metered record (a month of 1,000 units: ~5 million). The foreign key
-- from allocated_energy to the run that wrote it made every row look the run up and lock it (FOR
-- KEY SHARE): about a third of the insert's time (bench/combine.ts). The column stays as the run's
-- id for the log; procedure results are never deleted, so nothing is left dangling.
ALTER TABLE allocated_energy DROP CONSTRAINT allocated_energy_procedure_result_id_fkey;
