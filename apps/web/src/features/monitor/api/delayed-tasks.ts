import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { delayedTaskCalls, type DelayedTaskStatus, type ProcedureName } from '@railwatt/contracts';
import { api } from '../../../lib/api';

/** Query keys of the delayed tasks; a run refreshes every key of the destination (count and pages). */
export const delayedTaskKeys = {
  all: (destination: ProcedureName) => ['delayed-tasks', destination] as const,
  count: (destination: ProcedureName) => [...delayedTaskKeys.all(destination), 'count'] as const,
  page: (destination: ProcedureName, search: DelayedTaskSearch) =>
    [...delayedTaskKeys.all(destination), 'page', search] as const,
};

export interface DelayedTaskSearch {
  /** Zero-based, as the call takes it. */
  page: number;
  size: number;
  status?: DelayedTaskStatus;
}

/** GET /eventlog/delayed-tasks/count: the waiting tasks of the destination. */
export const delayedTaskCountQuery = (destination: ProcedureName) =>
  queryOptions({
    queryKey: delayedTaskKeys.count(destination),
    queryFn: ({ signal }) => api.call(delayedTaskCalls.count, { query: { destinationUri: destination }, signal }),
  });

/** GET /eventlog/delayed-tasks: a page of the destination's tasks, the latest due first. */
export const delayedTaskPageQuery = (destination: ProcedureName, search: DelayedTaskSearch) =>
  queryOptions({
    queryKey: delayedTaskKeys.page(destination, search),
    queryFn: ({ signal }) =>
      api.call(delayedTaskCalls.list, {
        query: {
          destinationUri: destination,
          page: search.page,
          size: search.size,
          sortBy: 'dueAt',
          descendingOrder: true,
          ...(search.status ? { status: search.status } : {}),
        },
        signal,
      }),
  });

/**
 * POST /processing/shunting-and-stabling/run-delayed-task: one task now (`id`), or every due one
 * (no id). Answers the runs started; the page follows their jobs and refreshes the tasks.
 */
export function useRunDelayedTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number | undefined) =>
      api.call(delayedTaskCalls.runShuntingAndStabling, { body: id === undefined ? {} : { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: delayedTaskKeys.all('shunting-and-stabling') }),
  });
}
