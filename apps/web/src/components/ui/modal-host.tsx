import { lazy, Suspense } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { messagesReady } from '../../lib/i18n';
import { useModalStore, type ModalType } from '../../lib/stores/modal-store';
import { NotBuilt } from './not-built';

/**
 * The time-series upload dialog, loaded when first opened (it is not part of the shell's initial
 * JavaScript), with the features' texts it reads.
 */
const TimeSeriesUploadDialog = lazy(() =>
  Promise.all([import('./upload-dialog/timeseries-upload'), messagesReady]).then(([module]) => ({
    default: module.TimeSeriesUploadDialog,
  })),
);

const UPLOADS: readonly ModalType[] = ['entities_upload', 'organisation_upload', 'serviceaccount_upload'];
const SET_STATUS: readonly ModalType[] = ['setactive', 'setinactive', 'retire', 'approve', 'unapprove'];
const YES_NO: readonly ModalType[] = ['userConfirmation', 'userConfirmationNew'];

/**
 * The one place modals render (product.md §4). Screens open a modal through useModalStore().open();
 * closing resets to 'none' and, if the modal names one, goes to its redirect target. timeseries_upload
 * opens the time-series upload dialog; the other upload and set-status bodies are shells here (their
 * screens open their dialogs themselves).
 */
export function ModalHost() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const modal = useModalStore((s) => s.modal);
  const close = useModalStore((s) => s.close);

  const finish = (action?: () => void): void => {
    action?.();
    const target = modal.redirectTo;
    close();
    if (target) void navigate(target);
  };

  const type = modal.type;
  if (type === 'timeseries_upload') {
    // The dialog is its own modal (colour frame, per-file progress, job progress).
    return (
      <Suspense fallback={null}>
        <TimeSeriesUploadDialog opened onClose={() => finish()} />
      </Suspense>
    );
  }
  let body;
  if (YES_NO.includes(type)) {
    body = (
      <Group justify="flex-end">
        <Button variant="outline" onClick={() => finish(modal.noAction)}>
          {t('modal.no')}
        </Button>
        <Button onClick={() => finish(modal.yesAction)}>{t('modal.yes')}</Button>
      </Group>
    );
  } else if (UPLOADS.includes(type) || SET_STATUS.includes(type)) {
    body = (
      <>
        <NotBuilt />
        <Group justify="flex-end">
          <Button variant="outline" onClick={() => finish()}>
            {t('modal.cancel')}
          </Button>
        </Group>
      </>
    );
  } else {
    body = (
      <Group justify="flex-end">
        <Button onClick={() => finish()}>{t('modal.close')}</Button>
      </Group>
    );
  }

  return (
    <Modal
      opened={type !== 'none'}
      onClose={() => finish()}
      title={type === 'none' ? '' : t(`modal.title.${type}`)}
      data-modal-type={type}
      centered
    >
      <Stack>
        {modal.message ? <Text>{modal.message}</Text> : null}
        {body}
      </Stack>
    </Modal>
  );
}
