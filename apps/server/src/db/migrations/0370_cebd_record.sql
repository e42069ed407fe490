-- One row per CEBD record (issue 19 item 1). A 5-minute record of a traction unit's consumption
-- point (its four energies, quality, position, traction system and the file it came in) was four
-- rows of time_series_value, a cebd_position row and, once checked, a cebd_preprocessed copy. It is
-- now one row of cebd_record, written once by the intake (modules/timeseries/cebd-store.ts);
-- cebd-preprocessing writes its placement, codes and checked_at onto that same row. The generic
-- store (time_series_value) keeps the hourly and coarser series.
--
-- Key (tenant, period_end, consumption_point_uuid): every step reads records by period (a chunk is
-- an area day: cebd-preprocessing, combine, the allocations, the intake's "does the span hold
-- anything" probe), which this key answers with one range scan per month partition; with the
-- consumption point first (cebd_position's old key) a day's chunk read the month's whole partition
-- (PostgreSQL 15 has no skip scan), EXPLAIN as railwatt_app: Seq Scan on cebd_record_2026_10
-- instead of Index Scan using cebd_record_2026_10_pkey with both bounds as index conditions. The
-- tenant leads because it is the distribution column under Citus (ARCHITECTURE.md). A second
-- btree (tenant, consumption point, period end) answers per-point questions: the latest record of
-- a point (the dashboard's delivery and completeness) and combine's "did the unit send anything
-- during the run" probe. Without the tenant in it, a query naming the tenant took the key instead
-- (EXPLAIN: Index Only Scan Backward using the pkey, walking periods until the point shows up).
CREATE TABLE cebd_record (
  tenant uuid NOT NULL,
  consumption_point_uuid uuid NOT NULL,
  period_end timestamptz NOT NULL,
  -- kWh and kvarh of the 5 minutes; NULL only with quality 46 (non-existent), as time_series_value.
  active_consumed numeric,
  active_regenerated numeric,
  reactive_consumed numeric,
  reactive_regenerated numeric,
  -- 127 measured, 61 uncertain, 56 estimated, 46 non-existent (calls.md §9).
  quality smallint NOT NULL CHECK (quality IN (127, 61, 56, 46)),
  lat double precision,
  lon double precision,
  traction_system text,
  -- The file whose values are current (a later file with equal values leaves it, see duplicate).
  data_log_id bigint,
  stored_at timestamptz NOT NULL DEFAULT now(),
  -- Written by cebd-preprocessing (modules/processing/cebd-preprocessing.ts). NULL: not checked
  -- since the record was stored (a correction stores a new row, unchecked).
  checked_at timestamptz,
  traction_unit_uuid uuid,
  grid_area_uuid uuid,
  price_area_uuid uuid,
  -- Validation codes 54-60 (calls.md §8; 60 alone when found); '{}' valid; NULL not checked yet.
  codes smallint[],
  -- The record arrived in more than one file (set by the intake's store: a later file with the
  -- same record, equal or not; the same data-log entry imported again is not another file). Sticky.
  duplicate boolean NOT NULL DEFAULT false,
  -- The procedure run that checked it (a job_run id or a procedure run), when given.
  run_id uuid,
  CONSTRAINT cebd_record_key PRIMARY KEY (tenant, period_end, consumption_point_uuid),
  CONSTRAINT cebd_record_present CHECK (
    quality = 46 OR (active_consumed IS NOT NULL AND active_regenerated IS NOT NULL
                     AND reactive_consumed IS NOT NULL AND reactive_regenerated IS NOT NULL))
) PARTITION BY RANGE (period_end);
CREATE TABLE cebd_record_default PARTITION OF cebd_record DEFAULT;
CREATE INDEX cebd_record_point_idx ON cebd_record (tenant, consumption_point_uuid, period_end);
-- The records of a file (statistics per file received, the span a stored file covers). A btree: a
-- BRIN (the rows of a file arrive together) was not used while its new pages were unsummarized
-- (summarized by VACUUM only) and the planner took the key with a filter over the month instead.
CREATE INDEX cebd_record_file_idx ON cebd_record (data_log_id);
SELECT rw_isolate_by_area('cebd_record');
REVOKE ALL ON cebd_record_default FROM railwatt_app;

-- A record replaced by a later file with other values (who and which file replaced it); the
-- current one stays in cebd_record. The record's own columns only: placement and codes are
-- decided again for the new values.
CREATE TABLE cebd_record_superseded (
  tenant uuid NOT NULL,
  consumption_point_uuid uuid NOT NULL,
  period_end timestamptz NOT NULL,
  active_consumed numeric,
  active_regenerated numeric,
  reactive_consumed numeric,
  reactive_regenerated numeric,
  quality smallint NOT NULL,
  lat double precision,
  lon double precision,
  traction_system text,
  data_log_id bigint,
  stored_at timestamptz NOT NULL,
  superseded_at timestamptz NOT NULL DEFAULT now(),
  superseded_by_data_log_id bigint,
  superseded_by text NOT NULL
);
CREATE INDEX cebd_record_superseded_key_idx ON cebd_record_superseded (consumption_point_uuid, period_end);
SELECT rw_isolate_by_area('cebd_record_superseded');

-- Month partitions of cebd_record, created on demand by the intake before it stores a batch (as
-- rw_ensure_time_series_months: SECURITY DEFINER, the partition reached only through the parent).
CREATE OR REPLACE FUNCTION rw_ensure_cebd_record_months(from_time timestamptz, to_time timestamptz)
  RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  month_start timestamptz := date_trunc('month', from_time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  month_end timestamptz;
  part text;
  created integer := 0;
BEGIN
  IF to_time - from_time > interval '25 years' THEN
    RAISE EXCEPTION 'time range too long for month partitions' USING ERRCODE = '22023';
  END IF;
  WHILE month_start <= to_time LOOP
    month_end := month_start + interval '1 month';
    part := 'cebd_record_' || to_char(month_start AT TIME ZONE 'UTC', 'YYYY_MM');
    IF to_regclass(part) IS NULL THEN
      PERFORM pg_advisory_xact_lock(hashtext(part));
      IF to_regclass(part) IS NULL THEN
        EXECUTE format('CREATE TABLE %I (LIKE cebd_record INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part);
        EXECUTE format(
          'INSERT INTO %I SELECT * FROM cebd_record_default WHERE period_end >= %L AND period_end < %L',
          part, month_start, month_end
        );
        EXECUTE format('DELETE FROM cebd_record_default WHERE period_end >= %L AND period_end < %L',
          month_start, month_end);
        EXECUTE format('ALTER TABLE cebd_record ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
          part, month_start, month_end);
        EXECUTE format('REVOKE ALL ON %I FROM railwatt_app', part);
        created := created + 1;
      END IF;
    END IF;
    month_start := month_end;
  END LOOP;
  RETURN created;
END $$;
REVOKE ALL ON FUNCTION rw_ensure_cebd_record_months(timestamptz, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION rw_ensure_cebd_record_months(timestamptz, timestamptz) TO railwatt_app;

-- Existing data. The CEBD values (four series per consumption point, migration 0090) pivoted per
-- record, with the record's position and, when cebd-preprocessing had checked it, the placement,
-- codes and duplicate flag of its cebd_preprocessed row. A record not checked yet gets its
-- duplicate flag by the rule cebd-preprocessing used: its values and its position came from
-- different files, or one of its values was replaced by another file.
CREATE TEMP TABLE rw_cebd_series ON COMMIT DROP AS
  SELECT id, tenant, entity_uuid, type_name FROM time_series
   WHERE resolution = 'PT5M' AND type_name IN ('cebd_active_energy_consumed', 'cebd_active_energy_regenerated',
                                                 'cebd_reactive_energy_consumed', 'cebd_reactive_energy_regenerated');
CREATE TEMP TABLE rw_cebd_moved ON COMMIT DROP AS
  SELECT s.tenant, s.entity_uuid AS cp, v.start_time + interval '5 minutes' AS period_end,
         max(v.value) FILTER (WHERE s.type_name = 'cebd_active_energy_consumed') AS ac,
         max(v.value) FILTER (WHERE s.type_name = 'cebd_active_energy_regenerated') AS ar,
         max(v.value) FILTER (WHERE s.type_name = 'cebd_reactive_energy_consumed') AS rc,
         max(v.value) FILTER (WHERE s.type_name = 'cebd_reactive_energy_regenerated') AS rr,
         coalesce(max(v.quality) FILTER (WHERE s.type_name = 'cebd_active_energy_consumed'), max(v.quality)) AS quality,
         coalesce(max(v.data_log_id) FILTER (WHERE s.type_name = 'cebd_active_energy_consumed'), max(v.data_log_id)) AS dl,
         min(v.data_log_id) AS dl_min, max(v.data_log_id) AS dl_max, bool_or(v.data_log_id IS NULL) AS dl_null,
         max(v.stored_at) AS stored_at
    FROM rw_cebd_series s JOIN time_series_value v ON v.series_id = s.id
   GROUP BY 1, 2, 3;
SELECT rw_ensure_cebd_record_months(min(period_end), max(period_end)) FROM rw_cebd_moved;
INSERT INTO cebd_record
       (tenant, consumption_point_uuid, period_end, active_consumed, active_regenerated, reactive_consumed,
        reactive_regenerated, quality, lat, lon, traction_system, data_log_id, stored_at,
        checked_at, traction_unit_uuid, grid_area_uuid, price_area_uuid, codes, duplicate, run_id)
SELECT m.tenant, m.cp, m.period_end,
       -- A value missing from a record (a fixture's partial record) is non-existent.
       m.ac, m.ar, m.rc, m.rr,
       CASE WHEN m.ac IS NULL OR m.ar IS NULL OR m.rc IS NULL OR m.rr IS NULL THEN 46 ELSE m.quality END,
       p.lat, p.lon, p.traction_system, m.dl, m.stored_at,
       c.processed_at, c.traction_unit_uuid, c.grid_area_uuid, c.price_area_uuid, c.codes,
       coalesce(c.duplicate,
                CASE WHEN p.data_log_id IS NULL THEN m.dl_max IS NOT NULL
                     ELSE m.dl_null OR m.dl_min <> p.data_log_id OR m.dl_max <> p.data_log_id END
                OR EXISTS (SELECT 1 FROM rw_cebd_series s JOIN time_series_value_superseded x ON x.series_id = s.id
                            WHERE s.entity_uuid = m.cp AND x.start_time = m.period_end - interval '5 minutes'
                              AND x.superseded_by_data_log_id IS DISTINCT FROM x.data_log_id)),
       c.run_id
  FROM rw_cebd_moved m
  LEFT JOIN cebd_position p ON p.tenant = m.tenant AND p.consumption_point_uuid = m.cp AND p.period_end = m.period_end
  LEFT JOIN cebd_preprocessed c ON c.tenant = m.tenant AND c.consumption_point_uuid = m.cp AND c.period_end = m.period_end;

-- The correction history: time_series_value_superseded held the values a correction replaced, per
-- series; a record's replacement is one row here per (record, moment, file, user). An energy the
-- correction did not replace was the value that stayed until its own next replacement (or is the
-- current one). Positions had no history (cebd_position was overwritten): NULL.
CREATE TEMP TABLE rw_cebd_replaced ON COMMIT DROP AS
  SELECT s.tenant, s.entity_uuid AS cp, s.type_name, x.start_time, x.value, x.quality, x.data_log_id, x.stored_at,
         x.superseded_at, x.superseded_by_data_log_id, x.superseded_by
    FROM rw_cebd_series s JOIN time_series_value_superseded x ON x.series_id = s.id;
INSERT INTO cebd_record_superseded
       (tenant, consumption_point_uuid, period_end, active_consumed, active_regenerated, reactive_consumed,
        reactive_regenerated, quality, data_log_id, stored_at, superseded_at, superseded_by_data_log_id, superseded_by)
SELECT e.tenant, e.cp, e.start_time + interval '5 minutes',
       (SELECT coalesce(max(x.value) FILTER (WHERE x.superseded_at = e.superseded_at),
                        (array_agg(x.value ORDER BY x.superseded_at) FILTER (WHERE x.superseded_at > e.superseded_at))[1],
                        (SELECT r.active_consumed FROM cebd_record r WHERE r.tenant = e.tenant AND r.consumption_point_uuid = e.cp
                            AND r.period_end = e.start_time + interval '5 minutes'))
          FROM rw_cebd_replaced x WHERE x.cp = e.cp AND x.start_time = e.start_time AND x.type_name = 'cebd_active_energy_consumed'),
       (SELECT coalesce(max(x.value) FILTER (WHERE x.superseded_at = e.superseded_at),
                        (array_agg(x.value ORDER BY x.superseded_at) FILTER (WHERE x.superseded_at > e.superseded_at))[1],
                        (SELECT r.active_regenerated FROM cebd_record r WHERE r.tenant = e.tenant AND r.consumption_point_uuid = e.cp
                            AND r.period_end = e.start_time + interval '5 minutes'))
          FROM rw_cebd_replaced x WHERE x.cp = e.cp AND x.start_time = e.start_time AND x.type_name = 'cebd_active_energy_regenerated'),
       (SELECT coalesce(max(x.value) FILTER (WHERE x.superseded_at = e.superseded_at),
                        (array_agg(x.value ORDER BY x.superseded_at) FILTER (WHERE x.superseded_at > e.superseded_at))[1],
                        (SELECT r.reactive_consumed FROM cebd_record r WHERE r.tenant = e.tenant AND r.consumption_point_uuid = e.cp
                            AND r.period_end = e.start_time + interval '5 minutes'))
          FROM rw_cebd_replaced x WHERE x.cp = e.cp AND x.start_time = e.start_time AND x.type_name = 'cebd_reactive_energy_consumed'),
       (SELECT coalesce(max(x.value) FILTER (WHERE x.superseded_at = e.superseded_at),
                        (array_agg(x.value ORDER BY x.superseded_at) FILTER (WHERE x.superseded_at > e.superseded_at))[1],
                        (SELECT r.reactive_regenerated FROM cebd_record r WHERE r.tenant = e.tenant AND r.consumption_point_uuid = e.cp
                            AND r.period_end = e.start_time + interval '5 minutes'))
          FROM rw_cebd_replaced x WHERE x.cp = e.cp AND x.start_time = e.start_time AND x.type_name = 'cebd_reactive_energy_regenerated'),
       e.quality, e.data_log_id, e.stored_at, e.superseded_at, e.superseded_by_data_log_id, e.superseded_by
  FROM (SELECT tenant, cp, start_time, superseded_at, superseded_by_data_log_id, superseded_by,
               max(quality) AS quality, max(data_log_id) AS data_log_id, min(stored_at) AS stored_at
          FROM rw_cebd_replaced GROUP BY 1, 2, 3, 4, 5, 6) e;

-- The CEBD series keep their time_series rows (one per type and consumption point: the catalogue
-- the time-series export lists and names by CPID); their values now live in cebd_record. The data
-- log's series summaries (data_log_time_series) describe files, not stored rows: unchanged.
DELETE FROM time_series_value v USING rw_cebd_series s WHERE v.series_id = s.id;
DELETE FROM time_series_value_superseded x USING rw_cebd_series s WHERE x.series_id = s.id;
DROP TABLE cebd_preprocessed;
DROP TABLE cebd_position;
