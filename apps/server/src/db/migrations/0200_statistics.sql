-- Statistics (issue 9 item 6, modules/statistics): the indexes the dashboard's queries lead with.
-- No table of its own: the statistics are counted from the tables of intake and processing.

-- CEBD records of the files received in a day (GET /statistics/cebd, uniqueCPIDs of cebd-import).
CREATE INDEX cebd_position_data_log_idx ON cebd_position (data_log_id) WHERE data_log_id IS NOT NULL;
-- Events recorded in the dashboard's range (GET /statistics/dashboardevents).
CREATE INDEX processing_event_created_idx ON processing_event (tenant, created_at);
-- Consumption points preprocessed or allocated in the range (uniqueCPIDs).
CREATE INDEX cebd_preprocessed_processed_idx ON cebd_preprocessed (tenant, processed_at);
CREATE INDEX allocated_energy_allocated_idx ON allocated_energy (tenant, allocated_at);
-- The checks of the records of the files received in a day (GET /statistics/cebd).
CREATE INDEX cebd_preprocessed_data_log_idx ON cebd_preprocessed (data_log_id) WHERE data_log_id IS NOT NULL;
