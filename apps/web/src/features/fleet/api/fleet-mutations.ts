import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  domainCalls,
  excelCalls,
  EXPORT_FILE_NAMES,
  type FleetFilter,
  type MasterdataExportRequest,
  type StatusChangeRequest,
  type TractionUnitSaveRequest,
} from '@railwatt/contracts';
import { api } from '../../../lib/api';
import { fleetKeys } from './fleet-queries';
import { saveBlob } from '../../../lib/download';

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

/**
 * masterdata.csv of what the overview lists for `filter` (every page), narrowed to the selected
 * traction units when there are any. The filter is the overview's POST /domain/fleet body.
 */
export async function exportMasterdata(filter: FleetFilter, selected: string[]) {
  const body: MasterdataExportRequest = selected.length > 0 ? { ...filter, uuids: selected } : filter;
  saveBlob(await api.call(excelCalls.masterdataExport, { body }), EXPORT_FILE_NAMES.masterdata);
}
