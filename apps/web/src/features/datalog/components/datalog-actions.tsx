import { Button, Group } from '@mantine/core';
import type { AllowedActions, DataLogEntry } from '@railwatt/contracts';
import { useErrorModal } from '../../../components/ui/api-error';
import { useModalStore } from '../../../lib/stores/modal-store';
import { downloadEntry, useRepeatAction, useSetToError, type RepeatAction } from '../api/datalog-mutations';
import { useDataLogT } from '../hooks/use-datalog-t';

/**
 * A row's action buttons: only those contracts' allowedActions grants (calls.md §4). Re-import,
 * re-export, re-order and set to error ask first (yes/no modal) and confirm or show the server's
 * refusal in the error modal; downloads save the file through lib/download.
 */
export function DataLogActions({ entry, allowed }: { entry: DataLogEntry; allowed: AllowedActions }) {
  const { t } = useDataLogT();
  const openModal = useModalStore((s) => s.open);
  const showError = useErrorModal();
  const repeat = useRepeatAction();
  const setToError = useSetToError();

  const confirmThen = (question: string, work: () => Promise<unknown>, done: string) =>
    openModal({
      type: 'userConfirmation',
      message: question,
      yesAction: () => {
        work().then(
          () => openModal({ type: 'confirmation', message: done }),
          (error: unknown) => showError(error),
        );
      },
    });

  const repeatButton = (action: RepeatAction) => (
    <Button
      key={action}
      size="compact-xs"
      variant="outline"
      onClick={() =>
        confirmThen(
          t(`actions.confirm.${action}`, { name: entry.fileName ?? entry.id }),
          () => repeat.mutateAsync({ action, entry }),
          t(`actions.done.${action}`),
        )
      }
    >
      {t(`actions.${action}`)}
    </Button>
  );

  const download = (response: boolean) => () => {
    downloadEntry(entry, response).catch((error: unknown) => showError(error));
  };

  return (
    <Group gap={4} wrap="nowrap" data-testid="datalog-actions">
      {allowed.reimport && repeatButton('reimport')}
      {allowed.reexport && repeatButton('reexport')}
      {allowed.reorder && repeatButton('reorder')}
      {allowed.setToError && (
        <Button
          size="compact-xs"
          variant="outline"
          color="red"
          onClick={() =>
            confirmThen(
              t('actions.confirm.setToError', { name: entry.fileName ?? entry.id }),
              () => setToError.mutateAsync(entry),
              t('actions.done.setToError'),
            )
          }
        >
          {t('actions.setToError')}
        </Button>
      )}
      {allowed.download && (
        <Button size="compact-xs" variant="subtle" onClick={download(false)}>
          {t('actions.download')}
        </Button>
      )}
      {allowed.downloadResponse && (
        <Button size="compact-xs" variant="subtle" onClick={download(true)}>
          {t('actions.downloadResponse')}
        </Button>
      )}
    </Group>
  );
}
