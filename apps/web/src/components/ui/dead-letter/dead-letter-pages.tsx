import { useMemo, useState } from 'react';
import { Badge, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import {
  DEAD_LETTER_FIRST_MESSAGES,
  type DeadLetterMessage,
  type DeadLetterQueue,
  type ProcedureName,
} from '@railwatt/contracts';
import { ApiErrorText } from '../api-error';
import { DataTable } from '../data-table';
import { PageTitle } from '../page-title';
import { formatDateTime } from '../../../lib/format';
import { useFormat } from '../../../lib/use-format';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';
import { useNamespaceT } from '../../../lib/use-namespace-t';
import {
  deadLetterMessagesQuery,
  deadLetterQueuesQuery,
  useRerunDeadLetters,
  type RerunRequest,
} from './dead-letter-api';

/** The queue the process pages' dead letters wait in (the server's procedure-run job). */
const PROCEDURE_RUN_QUEUE = 'procedure-run__dead';

const useDeadLetterT = () => useNamespaceT('deadLetter');
const useTimeZone = () => useMarketStore((s) => s.timeZone) ?? 'UTC';

/** The answer of the last rerun, in words. */
function RerunOutcome({ rerun }: { rerun: ReturnType<typeof useRerunDeadLetters> }) {
  const { t } = useDeadLetterT();
  if (rerun.isError) return <ApiErrorText error={rerun.error} />;
  if (!rerun.data) return null;
  return (
    <Text size="sm" role="status">
      {t('outcome', { rerun: rerun.data.rerun, settled: rerun.data.settled })}
    </Text>
  );
}

interface MessagesProps {
  messages: readonly DeadLetterMessage[];
  loading: boolean;
  /** The queue's count in the area (more than shown when over the first N). */
  total?: number;
  selected: string[];
  onSelected: (ids: string[]) => void;
}

/**
 * The shared dead letter table (administration screen and the combine dead letter page): queue
 * name, failed at, reason, processed object, estimated; rows are selected for a rerun.
 */
export function DeadLetterTable({ messages, loading, total, selected, onSelected }: MessagesProps) {
  const { t } = useDeadLetterT();
  const f = useFormat();
  const timeZone = useTimeZone();
  const columns = useMemo<ColumnDef<DeadLetterMessage>[]>(
    () => [
      { id: 'queueName', header: t('column.queueName'), accessorKey: 'queueName' },
      {
        id: 'failedAt',
        header: t('column.failedAt'),
        cell: ({ row }) => formatDateTime(row.original.failedAt, timeZone),
      },
      { id: 'reason', header: t('column.reason'), cell: ({ row }) => row.original.reason ?? '–' },
      {
        id: 'processedObject',
        header: t('column.processedObject'),
        cell: ({ row }) => row.original.processedObject.description,
      },
      {
        id: 'estimated',
        header: t('column.estimated'),
        cell: ({ row }) => (row.original.estimated ? <Badge color="yellow">{t('estimated')}</Badge> : null),
      },
      { id: 'username', header: t('column.username'), accessorKey: 'username' },
    ],
    [t, timeZone],
  );
  return (
    <Stack gap="xs">
      {total !== undefined && total > messages.length && (
        <Text size="sm">{t('firstMessages', { shown: f.number(messages.length), total: f.number(total) })}</Text>
      )}
      <DataTable
        data={messages}
        columns={columns}
        getRowId={(m) => m.id}
        emptyMessage={t('empty')}
        loading={loading}
        selection={{ selected, onChange: onSelected }}
        data-testid="dead-letter-messages"
        rowTestId="dead-letter-message"
      />
    </Stack>
  );
}

/**
 * administration/deadletterqueueadmin (product.md §4 "dead letter queue admin"): each queue with its
 * count; the first messages of the chosen queue; rerun of the selected messages, of the queue's
 * estimated ones, of everything; refresh. The erex-administrator's page (the server shows it every queue).
 */
export function DeadLetterQueueAdminPage(screen: ScreenProps) {
  const { t } = useDeadLetterT();
  const f = useFormat();
  const queues = useQuery(deadLetterQueuesQuery());
  const [chosen, setChosen] = useState<string | null>(null);
  const queue: DeadLetterQueue | undefined =
    queues.data?.find((q) => q.name === chosen) ?? queues.data?.find((q) => q.count > 0) ?? queues.data?.[0];
  const messages = useQuery({
    ...deadLetterMessagesQuery({ queue: queue?.name ?? PROCEDURE_RUN_QUEUE, size: DEAD_LETTER_FIRST_MESSAGES }),
    enabled: queue !== undefined,
  });
  const rerun = useRerunDeadLetters();
  const [selected, setSelected] = useState<string[]>([]);
  const run = (request: RerunRequest) => rerun.mutate(request, { onSuccess: () => setSelected([]) });

  return (
    <Stack gap="md">
      <PageTitle {...screen} />
      <ApiErrorText error={queues.isError ? queues.error : messages.isError ? messages.error : null} />
      <Table withTableBorder data-testid="dead-letter-queues">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('column.queueName')}</Table.Th>
            <Table.Th>{t('column.count')}</Table.Th>
            <Table.Th>{t('column.estimatedCount')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {queues.data?.map((q) => (
            <Table.Tr key={q.name} data-testid={`dead-letter-queue-${q.name}`}>
              <Table.Td>{q.name}</Table.Td>
              <Table.Td>{f.number(q.count)}</Table.Td>
              <Table.Td>{q.estimatedCount}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group align="end">
        <Select
          label={t('queue')}
          data={(queues.data ?? []).map((q) => ({ value: q.name, label: `${q.name} (${f.number(q.count)})` }))}
          value={queue?.name ?? null}
          onChange={(value) => {
            setChosen(value);
            setSelected([]);
          }}
          allowDeselect={false}
        />
        <Button variant="default" onClick={() => void queues.refetch().then(() => messages.refetch())}>
          {t('refresh')}
        </Button>
        <Button
          disabled={!queue || selected.length === 0}
          loading={rerun.isPending}
          onClick={() => queue && run({ kind: 'ids', queue: queue.name, ids: selected })}
        >
          {t('rerunSelected', { count: selected.length })}
        </Button>
        <Button
          variant="light"
          disabled={!queue || queue.estimatedCount === 0}
          loading={rerun.isPending}
          onClick={() => queue && run({ kind: 'estimated', queue: queue.name })}
        >
          {t('rerunEstimated')}
        </Button>
        <Button
          variant="light"
          color="orange"
          disabled={!queues.data?.some((q) => q.count > 0)}
          loading={rerun.isPending}
          onClick={() => run({ kind: 'everything' })}
        >
          {t('rerunAll')}
        </Button>
      </Group>
      <RerunOutcome rerun={rerun} />
      <DeadLetterTable
        messages={messages.data ?? []}
        loading={messages.isFetching}
        total={queue?.count}
        selected={selected}
        onSelected={setSelected}
      />
    </Stack>
  );
}

/**
 * A process's dead letter page (monitor/processes/combine/deadletterqueue): the dead runs of that
 * procedure only, from the procedure-run queue; rerun of the selected ones or of all of them, and
 * refresh. A rerun resumes each failed run from its unfinished days.
 */
export function ProcedureDeadLetterPage({ procedure, ...screen }: ScreenProps & { procedure: ProcedureName }) {
  const { t } = useDeadLetterT();
  const messages = useQuery(
    deadLetterMessagesQuery({ queue: PROCEDURE_RUN_QUEUE, procedureName: procedure, size: DEAD_LETTER_FIRST_MESSAGES }),
  );
  const rerun = useRerunDeadLetters();
  const [selected, setSelected] = useState<string[]>([]);
  const run = (request: RerunRequest) => rerun.mutate(request, { onSuccess: () => setSelected([]) });
  const count = messages.data?.length ?? 0;

  return (
    <Stack gap="md">
      <PageTitle {...screen} />
      <ApiErrorText error={messages.isError ? messages.error : null} />
      <Group>
        <Button variant="default" onClick={() => void messages.refetch()}>
          {t('refresh')}
        </Button>
        <Button
          disabled={selected.length === 0}
          loading={rerun.isPending}
          onClick={() => run({ kind: 'ids', queue: PROCEDURE_RUN_QUEUE, ids: selected })}
        >
          {t('rerunSelected', { count: selected.length })}
        </Button>
        <Button
          variant="light"
          color="orange"
          disabled={count === 0}
          loading={rerun.isPending}
          onClick={() => run({ kind: 'queue', queue: PROCEDURE_RUN_QUEUE, procedureName: procedure })}
        >
          {t('rerunAll')}
        </Button>
      </Group>
      <RerunOutcome rerun={rerun} />
      <DeadLetterTable
        messages={messages.data ?? []}
        loading={messages.isFetching}
        selected={selected}
        onSelected={setSelected}
      />
    </Stack>
  );
}
