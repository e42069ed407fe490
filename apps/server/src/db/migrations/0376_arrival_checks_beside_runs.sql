-- A CEBD file's check on arrival (issue 19 item 2: a cebd-preprocessing run by the system limited to
-- the file's consumption points, run option followers = 'processed') runs beside other runs of the
-- same days instead of waiting for them: files of one day arriving together are each checked within
-- seconds, and a person's run of the month is not refused while files arrive. What the one-run rule
-- protected (two runs writing a day's records at once, the later from an older view) is kept per
-- day instead: every cebd-preprocessing chunk takes a transaction lock on its area day first
-- (modules/processing/procedures.ts), so two chunks of one day run one after the other and the
-- second reads what the first committed. The rule stays for every other run.
ALTER TABLE procedure_result DROP CONSTRAINT procedure_result_already_running;
ALTER TABLE procedure_result ADD CONSTRAINT procedure_result_already_running EXCLUDE USING gist (
  tenant WITH =,
  procedure_name WITH =,
  tstzrange(period_start, period_end) WITH &&
) WHERE (status IN ('initial', 'running') AND (run_options ->> 'followers') IS DISTINCT FROM 'processed');
