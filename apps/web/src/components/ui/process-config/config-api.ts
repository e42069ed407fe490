import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  processingConfigCalls,
  type CallBodyInput,
  type ConfigProcedure,
  type ProcessingConfigSave,
} from '@railwatt/contracts';

type TuSettlementSave = CallBodyInput<typeof processingConfigCalls.saveTuSettlement>;
import { api } from '../../../lib/api';

/** Query keys of the processing configurations; a save refreshes its procedure and every history. */
export const configKeys = {
  all: ['processing-config'] as const,
  list: (procedure: string, tpa: boolean) => [...configKeys.all, 'list', procedure, { tpa }] as const,
  versions: (uuid: string) => [...configKeys.all, 'versions', uuid] as const,
};

/** GET /domain/processing-config/{procedure}: the versions and the one in use now. */
export const configListQuery = (procedure: ConfigProcedure, tpa = false) =>
  queryOptions({
    queryKey: configKeys.list(procedure, tpa),
    queryFn: ({ signal }) => api.call(processingConfigCalls.list, { params: { procedure }, query: { tpa }, signal }),
  });

/** GET /domain/settlementconfiguration/versions/{uuid}: every version, superseded ones marked. */
export const configVersionsQuery = (uuid: string) =>
  queryOptions({
    queryKey: configKeys.versions(uuid),
    queryFn: ({ signal }) => api.call(processingConfigCalls.versions, { params: { uuid }, signal }),
  });

/** POST /domain/processing-config/{procedure}: a version from a date. */
export function useSaveConfig(procedure: ConfigProcedure) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProcessingConfigSave) => api.call(processingConfigCalls.save, { params: { procedure }, body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: configKeys.all });
    },
  });
}

const tuKey = [...configKeys.all, 'tu-settlement'] as const;

/** GET /domain/processing-config/tu-settlement: each transmission-unit-model area's configuration. */
export const tuSettlementQuery = () =>
  queryOptions({
    queryKey: tuKey,
    queryFn: ({ signal }) => api.call(processingConfigCalls.tuSettlement, { query: {}, signal }),
  });

/** POST /domain/processing-config/tu-settlement/{settlementAreaId}. */
export function useSaveTuSettlement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ settlementAreaId, body }: { settlementAreaId: string; body: TuSettlementSave }) =>
      api.call(processingConfigCalls.saveTuSettlement, { params: { settlementAreaId }, body }),
    onSuccess: (answer) => queryClient.setQueryData(tuKey, answer),
  });
}
