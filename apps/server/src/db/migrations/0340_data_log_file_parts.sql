-- A data-log entry's file bytes as numbered parts of at most 1 MB (issue 17 item 2), written and read
-- one part per statement by modules/datalog/file-store.ts. One bytea of the whole file was one
-- parameter of one INSERT: a 100 MB upload was copied by every layer (multipart buffer, the driver's
-- encoding, PGlite's WebAssembly heap, which never shrinks) and killed the embedded process.
CREATE TABLE data_log_part (
  data_log_id bigint NOT NULL REFERENCES data_log (id) ON DELETE CASCADE,
  part integer NOT NULL CHECK (part >= 0),
  tenant uuid NOT NULL,
  bytes bytea NOT NULL CHECK (octet_length(bytes) BETWEEN 1 AND 1048576),
  PRIMARY KEY (data_log_id, part)
);
-- The same area policy as data_log (migration 0070).
SELECT rw_isolate_by_area('data_log_part');

-- Set when the last part is written: NULL means no file, or one still being written (readers see
-- none; a crashed upload's parts are removed at start-up). The lists read the size from here.
ALTER TABLE data_log ADD COLUMN file_size bigint;

-- The files stored so far, moved into parts (an empty file has a size and no parts).
INSERT INTO data_log_part (data_log_id, part, tenant, bytes)
SELECT d.id, n, d.tenant, substring(d.file_bytes FROM n * 1048576 + 1 FOR 1048576)
  FROM data_log d
 CROSS JOIN LATERAL generate_series(0, ceil(octet_length(d.file_bytes) / 1048576.0)::int - 1) AS n
 WHERE d.file_bytes IS NOT NULL;
UPDATE data_log SET file_size = octet_length(file_bytes) WHERE file_bytes IS NOT NULL;
ALTER TABLE data_log DROP COLUMN file_bytes;
