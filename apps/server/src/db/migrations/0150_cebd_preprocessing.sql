-- cebd-preprocessing (DOMAIN.md "Processing" step 1, issue 9 item 4): each CEBD record of a period
-- validated (codes 54 to 60 of calls.md §8), flagged when it arrived in more than one file, and
-- placed in a grid area and a price area by its position. modules/processing/cebd-preprocessing.ts
-- fills it with a few set-based statements per chunk; a re-run of a chunk replaces its rows.

-- The file's sender (the CEBD root attribute `sender`: the data collecting service, DCS). The
-- intake writes it in the file's transaction; code 55 compares it with the DCS of the unit's owner.
ALTER TABLE data_log ADD COLUMN sender text;

CREATE TABLE cebd_preprocessed (
  tenant uuid NOT NULL,
  consumption_point_uuid uuid NOT NULL,
  period_end timestamptz NOT NULL,
  traction_unit_uuid uuid,
  grid_area_uuid uuid,
  price_area_uuid uuid,
  -- The four energies of the record (kWh, kvarh), copied: later steps read one row per record.
  active_consumed numeric,
  active_regenerated numeric,
  reactive_consumed numeric,
  reactive_regenerated numeric,
  quality smallint,
  -- Validation codes found (calls.md §8: 54 unknown EMS ... 60 master data missing); when 60 is
  -- found it is the only one kept. Empty: the record is valid.
  codes smallint[] NOT NULL DEFAULT '{}',
  -- The record arrived in more than one file (see cebd-preprocessing.ts); the current values are kept.
  duplicate boolean NOT NULL DEFAULT false,
  data_log_id bigint,
  -- The procedure run that wrote the row (a job_run id or a procedure run of issue 9), when given.
  run_id uuid,
  processed_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT cebd_preprocessed_key PRIMARY KEY (tenant, consumption_point_uuid, period_end)
);
-- A chunk is a period of the area: its delete and the later steps read by period end.
CREATE INDEX cebd_preprocessed_period_idx ON cebd_preprocessed (tenant, period_end);
SELECT rw_isolate_by_area('cebd_preprocessed');

-- The CEBD positions of a period (the chunk's driving scan; the key leads with the consumption point).
CREATE INDEX cebd_position_period_idx ON cebd_position (tenant, period_end);

-- Point in a GeoJSON Polygon or MultiPolygon, planar on [lon, lat] (like modules/infrastructure
-- geometry.ts): even-odd ray casting per polygon over all its rings, so holes are respected; a
-- MultiPolygon holds the point when one of its polygons does. A point exactly on an edge may fall
-- on either side (two neighbouring areas: the caller picks one). Anything else (NULL, another
-- type, no position) holds no point. PL/pgSQL walking the rings: the same as one SQL statement
-- over jsonb_array_elements and generate_series measured ~10,000 times slower per call on
-- PostgreSQL 15 (a 10-vertex polygon: ~25 us here).
CREATE OR REPLACE FUNCTION rw_point_in_geometry(geom jsonb, lon double precision, lat double precision)
  RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  polygons jsonb := CASE geom ->> 'type'
    WHEN 'Polygon' THEN jsonb_build_array(geom -> 'coordinates')
    WHEN 'MultiPolygon' THEN geom -> 'coordinates' END;
  poly jsonb;
  ring jsonb;
  n integer;
  inside boolean;
  x1 double precision; y1 double precision; x2 double precision; y2 double precision;
BEGIN
  IF lon IS NULL OR lat IS NULL OR jsonb_typeof(polygons) IS DISTINCT FROM 'array' THEN
    RETURN false;
  END IF;
  FOR poly IN SELECT jsonb_array_elements(polygons) LOOP
    inside := false;
    FOR ring IN SELECT jsonb_array_elements(poly) LOOP
      n := jsonb_array_length(ring);
      x2 := (ring -> (n - 1) ->> 0)::float8;
      y2 := (ring -> (n - 1) ->> 1)::float8;
      FOR k IN 0 .. n - 1 LOOP
        x1 := (ring -> k ->> 0)::float8;
        y1 := (ring -> k ->> 1)::float8;
        IF (y1 > lat) <> (y2 > lat) AND lon < (x2 - x1) * (lat - y1) / (y2 - y1) + x1 THEN
          inside := NOT inside;
        END IF;
        x2 := x1;
        y2 := y1;
      END LOOP;
    END LOOP;
    IF inside THEN
      RETURN true;
    END IF;
  END LOOP;
  RETURN false;
END $$;

-- The bounding box of a GeoJSON Polygon or MultiPolygon (outer rings suffice), as
-- {min lon, min lat, max lon, max lat}: the cheap prefilter ahead of rw_point_in_geometry.
CREATE OR REPLACE FUNCTION rw_geometry_bbox(geom jsonb)
  RETURNS double precision[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY[min((v ->> 0)::float8), min((v ->> 1)::float8), max((v ->> 0)::float8), max((v ->> 1)::float8)]
    FROM jsonb_array_elements(CASE geom ->> 'type'
           WHEN 'Polygon' THEN jsonb_build_array(geom -> 'coordinates')
           WHEN 'MultiPolygon' THEN geom -> 'coordinates'
           ELSE '[]'::jsonb END) AS p(rings)
    CROSS JOIN LATERAL jsonb_array_elements(p.rings -> 0) AS v
$$;
GRANT EXECUTE ON FUNCTION rw_point_in_geometry(jsonb, double precision, double precision) TO railwatt_app;
GRANT EXECUTE ON FUNCTION rw_geometry_bbox(jsonb) TO railwatt_app;
