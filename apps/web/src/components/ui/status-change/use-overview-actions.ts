import { useState } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES, type StatusAction, type StatusChangeResult, type TimeRange } from '@railwatt/contracts';
import { useModalStore } from '../../../lib/stores/modal-store';
import { useErrorModal } from '../api-error';
import type { StatusSummary } from '../../../lib/stores/status-summary';
import { dayInZone, dayRangeInZone, type SetStatusDialogProps, type SetStatusFormValues } from '../set-status-dialog';

/** What a status change sends besides the selection: the action, the range in the area's zone and the comment. */
export interface StatusChangeInput {
  action: StatusAction;
  timeRange: TimeRange;
  comment: string | null;
}

export interface OverviewActionsOptions {
  selected: string[];
  clearSelection: () => void;
  timeZone: string;
  /**
   * The caller's namespace: 'messages.no_entities_selected' (an export with nothing selected, the
   * contracts' MESSAGES text when missing) and 'messages.success_change' (a saved change).
   */
  t: (key: string, options?: { defaultValue?: string }) => string;
  /** Sends the change of the selected rows (the caller's mutation). */
  submit: (input: StatusChangeInput) => Promise<StatusChangeResult>;
  submitting: boolean;
  /** The caller's status summary store's show(). */
  showSummary: (summary: StatusSummary) => void;
  /** The error summary page a partly failed change goes to. */
  summaryPath: string;
  /** The summary's back link (the overview as the user left it). */
  parentPage: string;
  /** Where the confirmation of a saved change leads, and whether the overview navigates there at once. */
  back: string;
  navigateOnSuccess: boolean;
}

/**
 * The overview actions every entity overview shares (product.md §4): export the selection (refused
 * when nothing is selected), and set status: the dialog, then a confirmation when everything was saved
 * or the error summary when some failed. Errors from the server open the error modal.
 */
export function useOverviewActions(options: OverviewActionsOptions) {
  const { selected, clearSelection, timeZone, t, submit, submitting, showSummary } = options;
  const navigate = useNavigate();
  const openModal = useModalStore((s) => s.open);
  const [action, setAction] = useState<StatusAction | null>(null);

  const showError = useErrorModal();

  /** Exports the selection; with nothing selected it says so instead. */
  const exportSelected = async (doExport: (uuids: string[]) => Promise<void>) => {
    if (selected.length === 0) {
      openModal({
        type: 'error',
        message: t('messages.no_entities_selected', { defaultValue: MESSAGES.noEntitiesSelected }),
      });
      return;
    }
    try {
      await doExport(selected);
    } catch (error) {
      showError(error);
    }
  };

  const onSetStatus = async (values: SetStatusFormValues) => {
    if (!action) return;
    try {
      const result = await submit({
        action,
        // An empty "Valid to" is open-ended: the fixed end of time, never a zoned 2070-01-01.
        timeRange: dayRangeInZone(values.from, values.to, timeZone),
        comment: values.comment.trim() === '' ? null : values.comment,
      });
      const failed = result.items.filter((item) => item.error);
      const succeeded = result.items.filter((item) => !item.error);
      setAction(null);
      clearSelection();
      if (failed.length === 0) {
        openModal({ type: 'confirmation', message: t('messages.success_change'), redirectTo: options.back });
        if (options.navigateOnSuccess) void navigate(options.back);
      } else {
        showSummary({ action, failed, succeeded, parentPage: options.parentPage });
        void navigate(options.summaryPath);
      }
    } catch (error) {
      setAction(null);
      showError(error);
    }
  };

  const dialogProps: SetStatusDialogProps = {
    opened: action !== null,
    action,
    count: selected.length,
    onClose: () => setAction(null),
    onSubmit: onSetStatus,
    submitting,
    defaultFrom: dayInZone(new Date().toISOString(), timeZone),
  };

  return { showError, exportSelected, pickAction: setAction, dialogProps };
}
