import { useState } from 'react';
import { Button, Checkbox, Group, Stack } from '@mantine/core';
import type { QueryKey } from '@tanstack/react-query';
import { FAILABLE_STATUSES, type ProcedureResult, type ProcedureResultStatus } from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { useModalStore } from '../../../lib/stores/modal-store';
import { useApproveSettlement, useSaveSettlementStatus, useSetSettlementToFailure } from '../api/settlement-queries';
import { useSettlementT } from '../hooks/use-settlement-t';

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
 * The process runners' actions on one settlement result, each after a yes/no question: approve
 * (optionally marking the earlier approved settlement of the same scope corrected), unapprove,
 * invalidate and set to failure. A refusal shows the server's message below the buttons.
 * `listKey` is the month's result list, which every action changes.
 */
export function SettlementActions({
  result,
  listKey,
  disabled,
}: {
  result: ProcedureResult;
  listKey: QueryKey;
  disabled: boolean;
}) {
  const { t } = useSettlementT();
  const openModal = useModalStore((s) => s.open);
  const [markCorrected, setMarkCorrected] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const approve = useApproveSettlement(listKey);
  const save = useSaveSettlementStatus(listKey);
  const fail = useSetSettlementToFailure(listKey);
  const pending = approve.isPending || save.isPending || fail.isPending;
  const { id, status } = result;

  const ask = (question: string, action: () => Promise<unknown>, done: string) =>
    openModal({
      type: 'userConfirmation',
      message: question,
      yesAction: () => {
        setError(null);
        action().then(
          () => openModal({ type: 'confirmation', message: done }),
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
              t(markCorrected ? 'process.approveCorrectedQuestion' : 'process.approveQuestion', { id }),
              () => approve.mutateAsync({ id, markCorrected }),
              t('process.approved', { id }),
            ),
          'settlement-approve',
        )}
        {button(
          t('process.unapprove'),
          UNAPPROVABLE,
          () =>
            ask(
              t('process.unapproveQuestion', { id }),
              () => save.mutateAsync({ id, status: 'success' }),
              t('process.unapproved', { id }),
            ),
          'settlement-unapprove',
        )}
        {button(
          t('process.invalidate'),
          INVALIDATABLE,
          () =>
            ask(
              t('process.invalidateQuestion', { id }),
              () => save.mutateAsync({ id, status: 'invalid' }),
              t('process.invalidated', { id }),
            ),
          'settlement-invalidate',
        )}
        {button(
          t('process.setToFailure'),
          FAILABLE_STATUSES,
          () => ask(t('process.failureQuestion', { id }), () => fail.mutateAsync(id), t('process.failed', { id })),
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
