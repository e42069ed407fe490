/**
 * The monitor's page of a procedure (product.md §2 Monitor "processes"): its process log, its run
 * page, or a configuration page (`configuration/view`, or an area's own configuration such as
 * `configuration-switzerland/view`).
 */
export const processPath = (procedure: string, page: 'log' | 'run' | `${string}/view`) =>
  `/monitor/processes/${procedure}/${page}`;
