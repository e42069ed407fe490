import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  domainCalls,
  EXCEL_IMPORT_FIELD,
  excelCalls,
  EXPORT_FILE_NAMES,
  type FleetFilter,
  type MasterdataExportRequest,
  type StatusChangeRequest,
  type TractionUnitSaveRequest,
} from '@railwatt/contracts';
import { outcomeFromImportAnswer, type UploadFn } from '../../../components/ui/upload-dialog';
import { ApiError, isCancelled } from '../../../lib/errors';
import { api } from '../../../lib/api';
import { fleetKeys } from './fleet-queries';

/** POST /domain/status for the selected entities; the list pages are the only thing it changes. */
export function useStatusChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: StatusChangeRequest) => api.call(domainCalls.status, { body: request }),
    onSuccess: (_result, request) => {
      void queryClient.invalidateQueries({ queryKey: fleetKeys.lists() });
      for (const uuid of request.uuids) {
        void queryClient.invalidateQueries({ queryKey: fleetKeys.versions('tractionunit', uuid) });
      }
    },
  });
}

/** POST /domain/tractionunit/save: unit, type and consumption points in one transaction. */
export function useSaveTractionUnit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TractionUnitSaveRequest) => api.call(domainCalls.tractionUnitSave, { body: request }),
    onSuccess: (saved, request) => {
      void queryClient.invalidateQueries({ queryKey: fleetKeys.lists() });
      const uuid = saved?.uuid ?? request.tractionUnit.uuid;
      if (uuid) {
        void queryClient.invalidateQueries({ queryKey: fleetKeys.entity('tractionunit', uuid) });
        void queryClient.invalidateQueries({ queryKey: fleetKeys.versions('tractionunit', uuid) });
      }
      if (request.tractionUnitType) {
        void queryClient.invalidateQueries({ queryKey: fleetKeys.minimal('tractionunittype') });
      }
    },
  });
}

/** Saves a blob under a file name through a temporary link. */
export function saveBlob(blob: Blob, fileName: string) {
  if (typeof URL.createObjectURL !== 'function') return;
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(href);
}

export async function exportEntities(uuids: string[]) {
  saveBlob(await api.call(excelCalls.domainExport, { body: { uuids } }), EXPORT_FILE_NAMES.entities);
}

/**
 * masterdata.csv of what the overview lists for `filter` (every page), narrowed to the selected
 * traction units when there are any. The filter is the overview's POST /domain/fleet body.
 */
export async function exportMasterdata(filter: FleetFilter, selected: string[]) {
  const body: MasterdataExportRequest = selected.length > 0 ? { ...filter, uuids: selected } : filter;
  saveBlob(await api.call(excelCalls.masterdataExport, { body }), EXPORT_FILE_NAMES.masterdata);
}

/**
 * The message for a file whose upload failed as a whole (calls.md §8 "Upload failures"). A 400
 * carries the server's reason ('Something is wrong with uploaded data. fleet.xlsx: The file is not a
 * valid xlsx workbook'), which is what the user needs to fix the file, so it is shown as sent; the
 * generic texts (fleet namespace keys, translated by the caller) cover answers without one.
 */
export function uploadFailureMessage(error: unknown, translate: (key: string) => string): string {
  if (error instanceof ApiError) {
    if (error.status === 400) return error.envelope?.message?.trim() || translate('import.error.bad_data');
    if (error.status === 401 || error.status === 403) return translate('import.error.not_authorized');
  }
  return translate('import.error.unknown');
}

/**
 * POST /excel/domain/import, one file per request so each file has its own answer and its own
 * progress: the bytes sent reach the dialog as they leave the browser.
 */
export function createEntitiesUpload(translate: (key: string) => string): UploadFn {
  return async (file, onProgress) => {
    const form = new FormData();
    form.append(EXCEL_IMPORT_FIELD, file, file.name);
    try {
      const answer = await api.callUpload(excelCalls.domainImport, form, { onProgress });
      return outcomeFromImportAnswer(answer);
    } catch (error) {
      // Cancelled (area switch): not a failure of the file; the dialog puts it back silently.
      if (isCancelled(error)) throw error;
      return { status: 'failed', failures: [], message: uploadFailureMessage(error, translate) };
    }
  };
}
