-- The time-series store (DOMAIN.md "Time series", issue 8 item 1).
--
-- A series is one type (contracts TIME_SERIES_TYPES) for one entity of the area at one resolution.
-- Its values live in one long table keyed by (series, start of period), partitioned by month of
-- that start (UTC). The long table holds the current value only; a correction moves the value it
-- replaces to time_series_value_superseded with who and which file replaced it, so nothing is ever
-- silently overwritten and the audit trail is one query away.
CREATE TABLE time_series (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant uuid NOT NULL,
  type_name text NOT NULL,
  entity_uuid uuid NOT NULL,
  entity_kind text NOT NULL,
  -- The identifier the series was first stored under (CPID, metering point or price area name).
  identifier text NOT NULL,
  resolution text NOT NULL CHECK (resolution IN ('PT5M', 'PT15M', 'PT1H', 'P1D', 'P1M', 'P1Y')),
  unit text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT time_series_identity UNIQUE (tenant, type_name, entity_uuid, resolution)
);
CREATE INDEX time_series_tenant_type_idx ON time_series (tenant, type_name, identifier);
SELECT rw_isolate_by_area('time_series');

-- quality: 127 measured, 61 uncertain, 56 estimated, 46 non-existent (calls.md §9); value is NULL
-- only for 46.
CREATE TABLE time_series_value (
  tenant uuid NOT NULL,
  series_id bigint NOT NULL,
  start_time timestamptz NOT NULL,
  value numeric,
  quality smallint NOT NULL CHECK (quality IN (127, 61, 56, 46)),
  data_log_id bigint,
  stored_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT time_series_value_key PRIMARY KEY (series_id, start_time),
  CONSTRAINT time_series_value_present CHECK (value IS NOT NULL OR quality = 46)
) PARTITION BY RANGE (start_time);
-- Rows outside every month partition (a month rw_ensure_time_series_months was not asked for).
CREATE TABLE time_series_value_default PARTITION OF time_series_value DEFAULT;
SELECT rw_isolate_by_area('time_series_value');

CREATE TABLE time_series_value_superseded (
  tenant uuid NOT NULL,
  series_id bigint NOT NULL,
  start_time timestamptz NOT NULL,
  value numeric,
  quality smallint NOT NULL,
  data_log_id bigint,
  stored_at timestamptz NOT NULL,
  superseded_at timestamptz NOT NULL DEFAULT now(),
  superseded_by_data_log_id bigint,
  superseded_by text NOT NULL
);
CREATE INDEX time_series_value_superseded_key_idx ON time_series_value_superseded (series_id, start_time);
SELECT rw_isolate_by_area('time_series_value_superseded');

-- Per CEBD record, beside its four energy series: where the unit was and on which traction system
-- (cebd-preprocessing places each record in a grid and price area by this position).
CREATE TABLE cebd_position (
  tenant uuid NOT NULL,
  consumption_point_uuid uuid NOT NULL,
  period_end timestamptz NOT NULL,
  lat double precision,
  lon double precision,
  traction_system text NOT NULL,
  data_log_id bigint,
  CONSTRAINT cebd_position_key PRIMARY KEY (consumption_point_uuid, period_end)
);
SELECT rw_isolate_by_area('cebd_position');

-- Month partitions of time_series_value, created on demand by the store before it loads values
-- (the app role may not create tables, hence SECURITY DEFINER, owned by the migrating user). A
-- partition is reached only through the parent, whose policy applies: the app role gets no rights
-- on the partition itself. A month that already has rows in the default partition is moved there
-- first (rare: only values stored before the month was asked for).
CREATE OR REPLACE FUNCTION rw_ensure_time_series_months(from_time timestamptz, to_time timestamptz)
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
    part := 'time_series_value_' || to_char(month_start AT TIME ZONE 'UTC', 'YYYY_MM');
    IF to_regclass(part) IS NULL THEN
      PERFORM pg_advisory_xact_lock(hashtext(part));
      IF to_regclass(part) IS NULL THEN
        EXECUTE format('CREATE TABLE %I (LIKE time_series_value INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part);
        EXECUTE format(
          'INSERT INTO %I SELECT * FROM time_series_value_default WHERE start_time >= %L AND start_time < %L',
          part, month_start, month_end
        );
        EXECUTE format('DELETE FROM time_series_value_default WHERE start_time >= %L AND start_time < %L',
          month_start, month_end);
        EXECUTE format('ALTER TABLE time_series_value ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
          part, month_start, month_end);
        EXECUTE format('REVOKE ALL ON %I FROM railwatt_app', part);
        created := created + 1;
      END IF;
    END IF;
    month_start := month_end;
  END LOOP;
  RETURN created;
END $$;
REVOKE ALL ON FUNCTION rw_ensure_time_series_months(timestamptz, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION rw_ensure_time_series_months(timestamptz, timestamptz) TO railwatt_app;
REVOKE ALL ON time_series_value_default FROM railwatt_app;

-- Settings of an area's intake (calls.md /exchange/cebdinput: maximum days since observation).
CREATE TABLE area_setting (
  tenant uuid NOT NULL,
  key text NOT NULL,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL,
  CONSTRAINT area_setting_key PRIMARY KEY (tenant, key)
);
SELECT rw_isolate_by_area('area_setting');
