-- One approved result per scope is a database rule (issue 17 item 7), like one run under way per
-- scope (0130): the approval's check (modules/processing/tasks.ts approveResults, 400
-- approved-settlement-exists) answers with the spec's words, and this index keeps two approvals
-- sent at once honest on PostgreSQL, where both may pass the check; db/constraints.ts answers its
-- violation with the same 400. The scope is the approval's (tasks-repository.ts approvedOfSameScope):
-- procedure, period, the set of refs in any order, and whether it is a TPA settlement version.

-- The refs as a set: sorted, so the same refs in another order are the same scope.
CREATE FUNCTION rw_sorted_uuids(uuids uuid[]) RETURNS uuid[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(u ORDER BY u), '{}') FROM unnest(uuids) u $$;

-- Approvals that raced before this rule: the newest of a scope stays approved, the older ones are
-- corrected, as approving the newest with updatePreviouslyApprovedToCorrected would have done.
SELECT set_config('railwatt.all_areas', 'on', true);
UPDATE procedure_result p
   SET status = 'corrected',
       message = left(coalesce(p.message || '; ', '') || 'corrected when one approval per scope became a rule', 4000)
 WHERE p.status = 'approved'
   AND EXISTS (
     SELECT 1 FROM procedure_result n
      WHERE n.status = 'approved' AND n.id > p.id
        AND n.tenant = p.tenant AND n.procedure_name = p.procedure_name
        AND n.period_start = p.period_start AND n.period_end = p.period_end
        AND rw_sorted_uuids(n.ref_uuids) = rw_sorted_uuids(p.ref_uuids)
        AND coalesce(n.run_options ->> 'tpa', 'false') = coalesce(p.run_options ->> 'tpa', 'false'));

CREATE UNIQUE INDEX procedure_result_one_approved
  ON procedure_result (tenant, procedure_name, period_start, period_end, rw_sorted_uuids(ref_uuids),
                       (coalesce(run_options ->> 'tpa', 'false')))
  WHERE status = 'approved';
