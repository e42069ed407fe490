import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderScreens } from '../../../../components/ui/screen-harness';
import { SentMailPage } from './sent-mail-page';

const BASE = '/api/administration/sentmail';

const mail = (id: number, subject: string) => ({
  id,
  tenant: '00000000-0000-4000-8000-000000000001',
  areaName: 'Norway',
  sentAt: '2026-11-02T05:00:00.000Z',
  sender: 'Railwatt <noreply@localhost>',
  recipients: ['ru@example.org'],
  subject,
  fileNames: ['settlement-2026-10.xlsx'],
  sizeBytes: 20_480,
  username: 'settlement-area-responsible',
  node: 'node-1',
});

const render = () =>
  renderScreens(
    [{ path: '/administration/sentmail', element: <SentMailPage titleKey="routes.administration.sentMail" /> }],
    '/administration/sentmail',
    { rolesInArea: ['erex-administrator'], timeZone: 'Europe/Oslo' },
  );

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('sent mail (our addition, issue 20 item 5)', () => {
  it('lists the kept e-mails, searches them and downloads one as its .eml file', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      [`GET ${BASE}`]: {
        content: [mail(7, 'Settlement October 2026')],
        totalElements: 1,
        totalPages: 1,
        size: 20,
        number: 0,
      },
      [`GET ${BASE}/7/download`]: () =>
        new Response('From: Railwatt\r\n\r\nbody', { status: 200, headers: { 'content-type': 'message/rfc822' } }),
    });
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    render();
    expect(await screen.findByRole('heading', { name: 'Sent mail' })).toBeInTheDocument();
    const [row] = await screen.findAllByTestId('sent-mail-row');
    expect(within(row!).getByText('02.11.2026 06:00')).toBeInTheDocument();
    expect(within(row!).getByText('ru@example.org')).toBeInTheDocument();
    expect(within(row!).getByText('settlement-2026-10.xlsx')).toBeInTheDocument();
    expect(within(row!).getByText('20 kB')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Subject, recipient or file'), 'October');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await vi.waitFor(() => expect(calls.at(-1)!.url.searchParams.get('search')).toBe('October'));
    expect(calls.at(-1)!.url.searchParams.get('page')).toBe('0');

    await user.click(screen.getByRole('button', { name: 'Download the e-mail Settlement October 2026' }));
    await vi.waitFor(() => expect(saved).toEqual(['mail-7.eml']));
  });

  it('says so when nothing was kept', async () => {
    mockFetch({ [`GET ${BASE}`]: { content: [], totalElements: 0, totalPages: 0, size: 20, number: 0 } });
    render();
    expect(await screen.findByText('No e-mail kept.')).toBeInTheDocument();
  });
});
