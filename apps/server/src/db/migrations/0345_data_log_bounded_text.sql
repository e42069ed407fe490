-- Issue 17 item 4: what a file says never breaks a list. Every writer bounds a file name to the
-- contract's 200 characters and a message to 10,000 (modules/datalog/datalog-service.ts with
-- db/storable-text.ts); these checks make that the table's rule too, so a writer that forgets fails
-- at its own write instead of breaking the data-log list of a whole area (the list's response
-- schema refuses a longer row). Rows an earlier version stored are cut the same way first.
-- (length counts characters; the contracts count UTF-16 units, which the writers cut by.)
UPDATE data_log SET file_name = left(file_name, 199) || '…' WHERE length(file_name) > 200;
UPDATE data_log SET response_file_name = left(response_file_name, 199) || '…' WHERE length(response_file_name) > 200;
UPDATE data_log SET message_text = left(message_text, 9960) || ' … (cut when the data log was bounded)'
 WHERE length(message_text) > 10000;
UPDATE data_log_time_series SET entity_identifier = left(entity_identifier, 199) || '…'
 WHERE length(entity_identifier) > 200;

ALTER TABLE data_log
  ADD CONSTRAINT data_log_file_name_length CHECK (length(file_name) <= 200),
  ADD CONSTRAINT data_log_response_file_name_length CHECK (length(response_file_name) <= 200),
  ADD CONSTRAINT data_log_message_text_length CHECK (length(message_text) <= 10000);
ALTER TABLE data_log_time_series
  ADD CONSTRAINT data_log_time_series_entity_identifier_length CHECK (length(entity_identifier) <= 200);
