-- User management (calls.md §7 "Users"). Sign-in looks users up case-insensitively, so two users
-- may not differ only in case; the name ends in _uniqueproperties so a race answers that code.
CREATE UNIQUE INDEX app_user_username_uniqueproperties ON app_user (lower(username));

-- Organisation relations are looked up by lower(username) (identity and fleet rules).
CREATE INDEX user_organisation_username_idx ON user_organisation (lower(username));

-- Credentials of an organisation's export destination (organisationtype-with-credentials).
-- The secret (password, or private key + passphrase) is AES-256-GCM encrypted by the server;
-- answers never carry it. One row per organisation in a tenant; a new save replaces it.
CREATE TABLE organisation_credential (
  tenant uuid NOT NULL,
  organisation_uuid uuid NOT NULL REFERENCES entity (uuid) ON DELETE CASCADE,
  username text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('password', 'privateKey')),
  -- v1.<iv>.<tag>.<ciphertext>, base64url parts
  secret_encrypted text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL,
  PRIMARY KEY (tenant, organisation_uuid)
);
