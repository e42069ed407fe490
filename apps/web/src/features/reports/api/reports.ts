import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  procedureTaskCalls,
  reportCalls,
  type ReportFormat,
  type ReportLanguage,
  type ReportName,
  type ReportOrderAnswer,
} from '@railwatt/contracts';
import { api } from '../../../lib/api';
import { saveBlob } from '../../../lib/download';

/**
 * The reports calls (contracts calls/reports.ts and the order on POST /processing/tasks/{reportName},
 * calls/procedure-tasks.ts `task`): what the user may order, the order, and the ordered file.
 */
export const reportKeys = {
  all: ['reports'] as const,
  list: (locale: ReportLanguage) => [...reportKeys.all, 'list', locale] as const,
};

/** GET /domain/reports: the reports this user may order in the area, titled in `locale`. */
export const reportListQuery = (locale: ReportLanguage) =>
  queryOptions({
    queryKey: reportKeys.list(locale),
    queryFn: ({ signal }) => api.call(reportCalls.list, { query: { locale }, signal }),
    staleTime: 5 * 60_000,
  });

export interface ReportOrder {
  report: ReportName;
  year: number;
  month: number;
  zoneId: string;
  format: ReportFormat;
  language: ReportLanguage;
}

/** POST /processing/tasks/{reportName}: answers the job making the file and its data-log entry. */
export function useOrderReport() {
  return useMutation({
    mutationFn: async ({ report, year, month, zoneId, format, language }: ReportOrder) =>
      (await api.call(procedureTaskCalls.task, {
        params: { procedure: report },
        query: { year, month, zoneId },
        body: { zoneId, format, language },
      })) as ReportOrderAnswer,
  });
}

/** GET /eventlog/datalog/reports/{id}/file, saved under the file name the order answered. */
export async function downloadReportFile(answer: ReportOrderAnswer): Promise<void> {
  const blob = await api.call(reportCalls.file, { params: { id: answer.dataLogId } });
  saveBlob(blob, answer.fileName);
}
