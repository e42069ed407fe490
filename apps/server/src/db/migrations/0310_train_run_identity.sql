-- The later-duplicate rule (train-preprocessing.ts LATER_DUPLICATE, also in combine) asks, for a run
-- that shares its train number and operating day with another RU's, when each identity was first
-- stored: min(created_at) over every version, superseded ones included, which no index covered (the
-- current-run key and the day index hold current versions only), so each such run read the whole
-- table. This index answers it from the identity's first entry.
CREATE INDEX train_run_identity_idx ON train_run (tenant, operating_day, train_number, ru_uuid, created_at);
