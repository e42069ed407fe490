-- Several app nodes on one database (issue 19 item 5, ARCHITECTURE.md "Several nodes").
--
-- A node is one server process. At start it picks a number, records itself in app_node and holds
-- the session advisory lock (4242, number) on a connection of its own for as long as it lives
-- (db/node-lease.ts). PostgreSQL drops a session's locks when its connection ends, so a node killed
-- with SIGKILL, or cut off, stops holding it at once: rw_node_gone(number) is then true, and any
-- other node may settle what it left under way (start.ts sweepGoneNodes).
--
-- Every row a process leaves "under way" names the node that wrote it: the node's connections
-- start with `-c railwatt.node=<number>` (db/client.ts), and rw_node() is the default of the
-- columns below. PGlite (one process) sets nothing: its rows have no node, and a node-less row is
-- taken for one of a process that is gone, as every start treated it before.
CREATE TABLE app_node (
  id integer PRIMARY KEY CONSTRAINT app_node_id CHECK (id > 0),
  -- NODE_NAME, else host:port: for a person reading the log and the tables.
  name text NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now()
);

-- The node of this session's connection; NULL on PGlite and on a connection without the setting.
CREATE FUNCTION rw_node() RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('railwatt.node', true), '')::integer
$$;

-- True when no session of this database holds node `node`'s lock (or the row names no node).
CREATE FUNCTION rw_node_gone(node integer) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT node IS NULL OR NOT EXISTS (
    SELECT 1 FROM pg_locks
     WHERE locktype = 'advisory' AND granted AND objsubid = 2
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND classid = 4242 AND objid = node::oid)
$$;

GRANT EXECUTE ON FUNCTION rw_node() TO railwatt_app;
GRANT EXECUTE ON FUNCTION rw_node_gone(integer) TO railwatt_app;

-- The node that queued a run, then the one working on its attempt (jobs/repository.ts markRunning).
ALTER TABLE job_run ADD COLUMN node integer DEFAULT rw_node();
-- The node reading an upload (RUNNING) or writing a file's parts.
ALTER TABLE data_log ADD COLUMN node integer DEFAULT rw_node();
-- The node that started a result (between its row and its job, job_id is NULL).
ALTER TABLE procedure_result ADD COLUMN node integer DEFAULT rw_node();
-- The node that did an area day, and how often the day was done for its result: 1, always, unless
-- something ran a finished day again (run.ts claims a day before it does it: two-nodes.test.ts).
ALTER TABLE procedure_chunk
  ADD COLUMN node integer DEFAULT rw_node(),
  ADD COLUMN done_count integer NOT NULL DEFAULT 1 CONSTRAINT procedure_chunk_done_count CHECK (done_count > 0);
