-- The organisations whose figures a data-log file carries (issue 17 item 3): a metered-energy
-- aggregation names its paying organisation, the TPA's file every organisation in it. An actor
-- that sees only its own organisations (organisation/visibility.ts) sees an entry with
-- organisations only when all of them are its own; NULL: a file of the area, not attributed to
-- organisations (intake, prices, master data, reports), read by the roles that read the area's files.
ALTER TABLE data_log ADD COLUMN organisation_uuids uuid[];
