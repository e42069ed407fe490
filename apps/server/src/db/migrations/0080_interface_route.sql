-- SFTP interface routes (calls.md §3 "Interface route", §7 "/sftpintegration/interface-configuration").
-- A route is system-wide configuration of the platform (which SFTP server files of a kind arrive from
-- or leave to), not data of one area: no tenant column and no row-level security, on purpose. Only
-- the erex-administrator's calls read or write these tables (policy administratorOnly).
CREATE TABLE interface_route (
  route_id text PRIMARY KEY,
  description text,
  interface_type text NOT NULL,
  direction text NOT NULL CONSTRAINT interface_route_direction_check CHECK (direction IN ('IN', 'OUT')),
  folder text,
  server_type text NOT NULL CONSTRAINT interface_route_server_type_check CHECK (server_type IN ('INTERNAL', 'EXTERNAL')),
  username text NOT NULL,
  path text NOT NULL CONSTRAINT interface_route_path_check CHECK (path LIKE '/%'),
  -- product.md §5: a backup path only for internal servers with direction IN.
  backup_path text CONSTRAINT interface_route_backup_path_check CHECK (
    backup_path IS NULL OR (backup_path LIKE '/%' AND server_type = 'INTERNAL' AND direction = 'IN')
  ),
  hostname text NOT NULL,
  port integer NOT NULL DEFAULT 22 CHECK (port BETWEEN 1 AND 65535),
  enabled boolean NOT NULL DEFAULT true,
  sub_folders text[] NOT NULL DEFAULT '{}',
  change_comment text,
  -- The credentials: AES-256-GCM (modules/interface/credentials.ts), v1.<iv>.<tag>.<ciphertext>.
  credentials_kind text NOT NULL CHECK (credentials_kind IN ('password', 'privateKey')),
  credentials_encrypted text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL
);
-- Route ids differ in more than case (the id is the route's name in menus, files and history).
CREATE UNIQUE INDEX interface_route_route_id_uniquename ON interface_route (lower(route_id));

-- Every change of a route: what it became (a snapshot without credentials), which fields changed,
-- whether the credentials were replaced, the comment, who and when. Never updated or deleted.
CREATE TABLE interface_route_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  route_id text NOT NULL REFERENCES interface_route (route_id) ON DELETE CASCADE,
  change text NOT NULL CHECK (change IN ('CREATED', 'UPDATED', 'ENABLED', 'DISABLED')),
  changed_fields text[] NOT NULL DEFAULT '{}',
  credentials_changed boolean NOT NULL DEFAULT false,
  change_comment text,
  changed_by text NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  route jsonb NOT NULL
);
CREATE INDEX interface_route_history_route_idx ON interface_route_history (route_id, id DESC);
