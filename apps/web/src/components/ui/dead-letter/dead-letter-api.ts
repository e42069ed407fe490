import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  deadLetterQueueCalls,
  type CallQueryInput,
  type DeadLetterRerunResult,
  type ProcedureName,
} from '@railwatt/contracts';
import { api } from '../../../lib/api';

type MessagesQuery = CallQueryInput<typeof deadLetterQueueCalls.messages>;

/** Query keys of the dead letter queues; every rerun refreshes all of them (counts and messages move together). */
export const deadLetterKeys = {
  all: ['dead-letter-queues'] as const,
  queues: () => [...deadLetterKeys.all, 'queues'] as const,
  messages: (query: MessagesQuery) => [...deadLetterKeys.all, 'messages', query] as const,
};

/** GET /processing/dead-letter-queues: the queues with the area's counts. */
export const deadLetterQueuesQuery = () =>
  queryOptions({
    queryKey: deadLetterKeys.queues(),
    queryFn: ({ signal }) => api.call(deadLetterQueueCalls.queues, { signal }),
  });

/** GET /processing/dead-letter-queues/messages: the first messages (oldest first) of a queue. */
export const deadLetterMessagesQuery = (query: MessagesQuery) =>
  queryOptions({
    queryKey: deadLetterKeys.messages(query),
    queryFn: ({ signal }) => api.call(deadLetterQueueCalls.messages, { query, signal }),
  });

/** What a screen asks to rerun. */
export type RerunRequest =
  | { kind: 'ids'; queue: string; ids: string[] }
  | { kind: 'queue'; queue: string; procedureName?: ProcedureName }
  | { kind: 'estimated'; queue: string }
  | { kind: 'everything' };

function rerun(request: RerunRequest): Promise<DeadLetterRerunResult> {
  switch (request.kind) {
    case 'ids':
      return api.call(deadLetterQueueCalls.rerun, { params: { name: request.queue }, body: { ids: request.ids } });
    case 'queue':
      return api.call(deadLetterQueueCalls.rerun, {
        params: { name: request.queue },
        body: { all: true, ...(request.procedureName ? { procedureName: request.procedureName } : {}) },
      });
    case 'estimated':
      return api.call(deadLetterQueueCalls.rerunEstimated, { params: { name: request.queue } });
    case 'everything':
      return api.call(deadLetterQueueCalls.rerunAll, {});
  }
}

/** The rerun calls (POST .../{name}/rerun, /{name}/rerun-estimated, /rerun). */
export function useRerunDeadLetters() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rerun,
    onSettled: () => queryClient.invalidateQueries({ queryKey: deadLetterKeys.all }),
  });
}
