import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  aggregationFileName,
  dataLogCalls,
  MESSAGE_TYPES,
  type DataLogEntry,
  type DataLogPage,
  type MasterDataDownloadType,
  type MasterDataLogEntry,
} from '@railwatt/contracts';
import { api } from '../../../lib/api';
import { saveBlob } from '../../../lib/download';
import { dataLogKeys } from './datalog-queries';

export type RepeatAction = 'reimport' | 'reexport' | 'reorder';

/** Re-import, re-export or re-order: the entry's outcome changes, so the list pages are read again. */
export function useRepeatAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, entry }: { action: RepeatAction; entry: DataLogEntry }) =>
      api.call(dataLogCalls[action], { body: { id: entry.id, messageType: entry.messageType } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: dataLogKeys.lists() }),
  });
}

/**
 * POST /processing/tasks/set-to-error/{id}. calls.md §4: after the call the row's messageStatus and
 * messageText are replaced from the answer (in every cached page that holds the row).
 */
export function useSetToError() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entry: DataLogEntry) => api.call(dataLogCalls.setToError, { params: { id: entry.id } }),
    onSuccess: (answer, entry) => {
      queryClient.setQueriesData<DataLogPage>({ queryKey: dataLogKeys.lists() }, (page) =>
        page
          ? {
              ...page,
              content: page.content.map((row) =>
                row.id === entry.id
                  ? { ...row, messageStatus: answer.messageStatus, messageText: answer.messageText }
                  : row,
              ),
            }
          : page,
      );
    },
  });
}

/** The name a downloaded file is saved under (EXP_/RES_ for metered energy aggregations, calls.md §7). */
export function downloadFileName(entry: DataLogEntry, response: boolean): string {
  const name = entry.fileName ?? `datalog-${entry.id}`;
  if (entry.messageType === MESSAGE_TYPES.meteredEnergyAggregation) return aggregationFileName(name, response);
  return response ? `RES_${name}` : name;
}

/** POST /eventlog/datalog/download (response=true for the response file), saved through lib/download. */
export async function downloadEntry(entry: DataLogEntry, response: boolean): Promise<void> {
  const blob = await api.call(dataLogCalls.download, {
    body: { id: entry.id, messageType: entry.messageType },
    query: { response },
  });
  saveBlob(blob, downloadFileName(entry, response));
}

/** GET /masterdata/datalog/download, saved under the file name or the response file name. */
export async function downloadMasterData(entry: MasterDataLogEntry, kind: MasterDataDownloadType): Promise<void> {
  const blob = await api.call(dataLogCalls.masterDataDownload, { query: { id: entry.id, downloadContentType: kind } });
  const name =
    kind === 'RESPONSE'
      ? (entry.fileNameResponse ?? `response-${entry.id}`)
      : kind === 'TRANSFER_DECOMPRESSED'
        ? (entry.fileName ?? `transfer-${entry.id}`).replace(/\.gz$/i, '')
        : (entry.fileName ?? `transfer-${entry.id}`);
  saveBlob(blob, name);
}
