/** The monitor's page of a procedure: its process log or its run page (product.md §1 Monitor "processes"). */
export const processPath = (procedure: string, page: 'log' | 'run') => `/monitor/processes/${procedure}/${page}`;
