-- The host key an interface route's SFTP server must present (modules/interface/sftp-connection.ts):
-- SHA256:<base64> as `ssh-keygen -l` prints it. Null until the route's first connection pins the key it
-- meets (as OpenSSH's StrictHostKeyChecking=accept-new) or the administrator enters one; from then on
-- a server with another key is refused, so files are neither fetched from nor delivered to an impostor.
ALTER TABLE interface_route ADD COLUMN host_key_fingerprint text
  CONSTRAINT interface_route_host_key_check CHECK (host_key_fingerprint ~ '^SHA256:[A-Za-z0-9+/]{43}$');
