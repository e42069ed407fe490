import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { sentMailCalls as calls, type SentMail } from '@railwatt/contracts';
import { api } from '../../../lib/api';
import { saveBlob } from '../../../lib/download';

/** The "sent mail" page's list (contracts calls/sent-mail.ts, our addition): 1-based page in the UI. */
export interface SentMailListParams {
  page: number;
  size: number;
  search: string;
}

export const sentMailKeys = {
  all: ['sent-mail'] as const,
  list: (params: SentMailListParams) => [...sentMailKeys.all, 'list', params] as const,
};

export const sentMailListQuery = ({ page, size, search }: SentMailListParams) =>
  queryOptions({
    queryKey: sentMailKeys.list({ page, size, search }),
    queryFn: ({ signal }) =>
      api.call(calls.list, {
        query: { page: page - 1, size, sortBy: 'sentAt', descendingOrder: true, ...(search ? { search } : {}) },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** GET /administration/sentmail/{id}/download, saved as the .eml file a mail client opens. */
export async function downloadSentMail(mail: SentMail): Promise<void> {
  const blob = await api.call(calls.download, { params: { id: mail.id } });
  saveBlob(blob, `mail-${mail.id}.eml`);
}
