import { useState } from 'react';
import { Button, Checkbox, Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { QueryKey } from '@tanstack/react-query';
import { dayInZone, FAILABLE_STATUSES, type ProcedureResult, type ProcedureResultStatus } from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { useAreaName } from '../../../lib/use-format';
import { useModalStore } from '../../../lib/stores/modal-store';
import { useApproveSettlement, useSaveSettlementStatus, useSetSettlementToFailure } from '../api/settlement-queries';
import { monthOfDay, monthText } from '../hooks/settlement-month';
import { useSettlementT } from '../hooks/use-settlement-t';

/** A short notice after an action went through (issue 18 item 4: notices for success, dialogs for questions). */
export const showDone = (message: string) => notifications.show({ message, color: 'green', withBorder: true });

/**
 * Who approved, from the approve call's answer: the server writes "Approved by <user>" into the
 * approved result's message (modules/processing/tasks.ts approveResults). Null when it does not say.
 */
export function approvedBy(answer: readonly Partial<ProcedureResult>[] | null | undefined, id: number): string | null {
  const message = answer?.find((r) => r.id === id)?.message ?? '';
  return /^Approved by (\S+)/.exec(message)?.[1] ?? null;
}

/** The month a result settles, MM.yyyy in the area's zone. */
export const resultMonth = (result: Pick<ProcedureResult, 'periodStart'>, timeZone: string): string =>
  monthText(monthOfDay(dayInZone(result.periodStart, timeZone)));

/**
 * Which status each action takes a result from. Approve: a success (the server's rule). Unapprove:
 * an approved one back to success (contracts SAVABLE_STATUSES: "success only takes an approved
 * result back"). Invalidate: a finished result that is not approved (an approved one is unapproved
 * first, so a bill already sent is never withdrawn in one click). Set to failure: under way or
 * finished, not approved (contracts FAILABLE_STATUSES).
 */
const APPROVABLE: readonly ProcedureResultStatus[] = ['success'];
const UNAPPROVABLE: readonly ProcedureResultStatus[] = ['approved'];
const INVALIDATABLE: readonly ProcedureResultStatus[] = ['success', 'failure'];

/**
 * The process runners' actions on one settlement result, each after a yes/no question naming what it
 * acts on (the result, its month and area): approve (optionally marking the earlier approved
 * settlement of the same scope corrected), unapprove, invalidate and set to failure. What went
 * through is said in a short notice (approval: by whom, from the call's answer); a refusal shows the
 * server's message below the buttons. `listKey` is the month's result list, which every action changes.
 */
export function SettlementActions({
  result,
  listKey,
  disabled,
  timeZone,
}: {
  result: ProcedureResult;
  listKey: QueryKey;
  disabled: boolean;
  timeZone: string;
}) {
  const { t } = useSettlementT();
  const area = useAreaName();
  const scope = { id: result.id, month: resultMonth(result, timeZone), area };
  const openModal = useModalStore((s) => s.open);
  const [markCorrected, setMarkCorrected] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const approve = useApproveSettlement(listKey);
  const save = useSaveSettlementStatus(listKey);
  const fail = useSetSettlementToFailure(listKey);
  const pending = approve.isPending || save.isPending || fail.isPending;
  const { id, status } = result;

  const ask = <A,>(question: string, action: () => Promise<A>, done: (answer: A) => string) =>
    openModal({
      type: 'userConfirmation',
      message: question,
      yesAction: () => {
        setError(null);
        action().then(
          (answer) => showDone(done(answer)),
          (failure: unknown) => setError(failure),
        );
      },
    });

  const button = (
    label: string,
    allowed: readonly ProcedureResultStatus[],
    onClick: () => void,
    testId: string,
    color?: string,
  ) => (
    <Button
      variant="light"
      color={color}
      disabled={disabled || pending || !allowed.includes(status)}
      onClick={onClick}
      data-testid={testId}
    >
      {label}
    </Button>
  );

  return (
    <Stack gap="xs" data-testid="settlement-actions">
      <Checkbox
        label={t('process.markCorrected')}
        checked={markCorrected}
        onChange={(e) => setMarkCorrected(e.currentTarget.checked)}
        data-testid="mark-corrected"
      />
      <Group gap="xs">
        {button(
          t('process.approve'),
          APPROVABLE,
          () =>
            ask(
              t(markCorrected ? 'process.approveCorrectedQuestion' : 'process.approveQuestion', scope),
              () => approve.mutateAsync({ id, markCorrected }),
              (answer) => t('process.approved', { ...scope, user: approvedBy(answer, id) ?? t('process.someone') }),
            ),
          'settlement-approve',
        )}
        {button(
          t('process.unapprove'),
          UNAPPROVABLE,
          () =>
            ask(
              t('process.unapproveQuestion', scope),
              () => save.mutateAsync({ id, status: 'success' }),
              () => t('process.unapproved', scope),
            ),
          'settlement-unapprove',
        )}
        {button(
          t('process.invalidate'),
          INVALIDATABLE,
          () =>
            ask(
              t('process.invalidateQuestion', scope),
              () => save.mutateAsync({ id, status: 'invalid' }),
              () => t('process.invalidated', scope),
            ),
          'settlement-invalidate',
        )}
        {button(
          t('process.setToFailure'),
          FAILABLE_STATUSES,
          () =>
            ask(
              t('process.failureQuestion', scope),
              () => fail.mutateAsync(id),
              () => t('process.failed', scope),
            ),
          'settlement-set-to-failure',
          'red',
        )}
      </Group>
      {error != null && (
        <div data-testid="settlement-action-error">
          <ApiErrorText error={error} />
        </div>
      )}
    </Stack>
  );
}
