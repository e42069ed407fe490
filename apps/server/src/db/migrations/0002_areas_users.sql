-- Settlement areas (tenants) and the users who sign in to the embedded identity provider.
-- Market functions are stored per area; area_uuid NULL means the function holds in every area.
CREATE TABLE settlement_area (
  uuid uuid PRIMARY KEY,
  name text NOT NULL CONSTRAINT settlement_area_uniquename UNIQUE,
  kind text NOT NULL,
  time_zone text NOT NULL,
  settlement_partner boolean NOT NULL DEFAULT true
);

CREATE TABLE app_user (
  username text PRIMARY KEY,
  first_name text,
  last_name text,
  email text,
  -- scrypt$<salt base64url>$<hash base64url>
  password_hash text,
  enabled boolean NOT NULL DEFAULT true,
  attributes jsonb NOT NULL DEFAULT '{}'::jsonb,
  organisation uuid,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_market_function (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username text NOT NULL REFERENCES app_user (username) ON DELETE CASCADE,
  role text NOT NULL,
  area_uuid uuid REFERENCES settlement_area (uuid) ON DELETE CASCADE
);

-- One row per (user, role, area); NULLs (every area) are made comparable through COALESCE.
CREATE UNIQUE INDEX user_market_function_uniqueproperties
  ON user_market_function (username, role, COALESCE(area_uuid, '00000000-0000-0000-0000-000000000000'::uuid));
CREATE INDEX user_market_function_area ON user_market_function (area_uuid);
