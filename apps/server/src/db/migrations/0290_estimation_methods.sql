-- The three estimations of non-metered runs (DOMAIN.md "Processing" step 5, issue 10 item 1):
-- reported-train-consumption, reported-train-consumption-with-track and payload-with-trainprofile
-- write the same table; each row names the method that wrote it and the gross tonne-km it used
-- (the run's reported figure, or the composition's weight x the route's length). A run has the
-- rows of one method at a time (modules/settlement/estimation.ts).
ALTER TABLE estimated_energy ADD COLUMN method text NOT NULL DEFAULT 'reported-train-consumption';
ALTER TABLE estimated_energy ALTER COLUMN method DROP DEFAULT;
ALTER TABLE estimated_energy ADD COLUMN gross_tonne_km numeric;
ALTER TABLE estimated_energy ADD CONSTRAINT estimated_energy_method_check
  CHECK (method IN ('reported-train-consumption', 'reported-train-consumption-with-track', 'payload-with-trainprofile'));

-- The great-circle distance in km between two [lat, lon] points (haversine on the mean Earth
-- radius, 6,371.0088 km): the length of a leg between two places of a route.
CREATE OR REPLACE FUNCTION rw_km(lat1 double precision, lon1 double precision, lat2 double precision, lon2 double precision)
  RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 2 * 6371.0088 * asin(least(1, sqrt(
           power(sin(radians(lat2 - lat1) / 2), 2)
           + cos(radians(lat1)) * cos(radians(lat2)) * power(sin(radians(lon2 - lon1) / 2), 2))))
$$;
GRANT EXECUTE ON FUNCTION rw_km(double precision, double precision, double precision, double precision) TO railwatt_app;
