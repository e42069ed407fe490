-- Secrets of the embedded identity provider: the RS256 signing key (private JWK) and the cookie
-- keys. Persisted so that tokens and sign-in sessions survive restarts.
CREATE TABLE identity_secret (
  name text PRIMARY KEY,
  value jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- oidc-provider adapter storage (sessions, interactions, grants, codes, refresh tokens ...): one
-- table for every model, so a restart keeps users signed in.
CREATE TABLE identity_payload (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX identity_payload_grant ON identity_payload (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX identity_payload_uid ON identity_payload (uid) WHERE uid IS NOT NULL;
CREATE INDEX identity_payload_user_code ON identity_payload (user_code) WHERE user_code IS NOT NULL;
CREATE INDEX identity_payload_expires ON identity_payload (expires_at) WHERE expires_at IS NOT NULL;
