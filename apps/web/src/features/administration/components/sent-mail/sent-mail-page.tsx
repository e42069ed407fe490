import { Alert, Button, Group, Pagination, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageTitle } from '../../../../components/ui/page-title';
import { apiErrorMessages } from '../../../../lib/errors';
import { formatDateTime } from '../../../../lib/format';
import type { ScreenProps } from '../../../../lib/routes';
import { useMarketStore } from '../../../../lib/stores/market-store';
import { useNamespaceT } from '../../../../lib/use-namespace-t';
import { downloadSentMail, sentMailListQuery } from '../../api/sent-mail';

const PAGE_SIZE = 20;

/**
 * /administration/sentmail (our addition, issue 20 item 5): without an SMTP server (SMTP_URL unset)
 * the server keeps each e-mail it would have sent; the administrator sees them here, newest first,
 * and downloads each as the .eml file a mail server would have received.
 */
export function SentMailPage(props: ScreenProps) {
  const { t, tRoot } = useNamespaceT('administration');
  const timeZone = useMarketStore((s) => s.timeZone) ?? 'UTC';
  const [page, setPage] = useState(1);
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [failed, setFailed] = useState<string | null>(null);
  const mail = useQuery(sentMailListQuery({ page, size: PAGE_SIZE, search }));
  const pages = mail.data ? Math.max(1, Math.ceil(mail.data.totalElements / PAGE_SIZE)) : 1;

  return (
    <Stack gap="sm">
      <PageTitle {...props} />
      <Text c="dimmed">{t('sentmail.note')}</Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          setSearch(typed.trim());
        }}
      >
        <Group align="end">
          <TextInput
            label={t('sentmail.search')}
            value={typed}
            maxLength={200}
            onChange={(event) => setTyped(event.currentTarget.value)}
          />
          <Button type="submit">{t('sentmail.find')}</Button>
        </Group>
      </form>
      {mail.isError && (
        <Alert color="red">{apiErrorMessages(mail.error, tRoot).join(' ') || t('sentmail.load_failed')}</Alert>
      )}
      {failed && <Alert color="red">{failed}</Alert>}
      {mail.data && mail.data.content.length === 0 && <Text>{t('sentmail.empty')}</Text>}
      {mail.data && mail.data.content.length > 0 && (
        <Table striped data-testid="sent-mail">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('sentmail.sent_at')}</Table.Th>
              <Table.Th>{t('sentmail.area')}</Table.Th>
              <Table.Th>{t('sentmail.recipients')}</Table.Th>
              <Table.Th>{t('sentmail.subject')}</Table.Th>
              <Table.Th>{t('sentmail.files')}</Table.Th>
              <Table.Th>{t('sentmail.size')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('sentmail.download')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {mail.data.content.map((m) => (
              <Table.Tr key={m.id} data-testid="sent-mail-row">
                <Table.Td>{formatDateTime(m.sentAt, timeZone)}</Table.Td>
                <Table.Td>{m.areaName}</Table.Td>
                <Table.Td>{m.recipients.join(', ')}</Table.Td>
                <Table.Td>{m.subject}</Table.Td>
                <Table.Td>{m.fileNames.join(', ')}</Table.Td>
                <Table.Td>{t('sentmail.kb', { value: Math.max(1, Math.round(m.sizeBytes / 1024)) })}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant="outline"
                    aria-label={t('sentmail.download_one', { subject: m.subject })}
                    onClick={() => {
                      setFailed(null);
                      downloadSentMail(m).catch((error: unknown) =>
                        setFailed(apiErrorMessages(error, tRoot).join(' ') || t('sentmail.download_failed')),
                      );
                    }}
                  >
                    {t('sentmail.download')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
    </Stack>
  );
}
