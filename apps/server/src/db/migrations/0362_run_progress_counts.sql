-- A run's progress in the units a user reads (issue 18 item 4): "12 of 31 days, 40,000 records".
-- chunks_total is the number of area days the run's period is cut into (written when the run starts:
-- the days depend on the area's time zone); the days done are the run's procedure_chunk rows, and
-- each chunk keeps how many records it processed (NULL: the procedure does not count records).
ALTER TABLE procedure_result ADD COLUMN chunks_total integer CONSTRAINT procedure_result_chunks_total CHECK (chunks_total >= 0);
ALTER TABLE procedure_chunk ADD COLUMN records bigint CONSTRAINT procedure_chunk_records CHECK (records >= 0);
