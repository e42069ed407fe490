import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { VersionedEntity } from '@railwatt/contracts';
import { createFakeXhr, type FakeXhr, type FakeXhrAnswer } from '../../../../lib/api/testing/fake-xhr';
import { mockFetch, renderAdministration } from '../../testing/render-administration';

afterEach(() => vi.unstubAllGlobals());

const VY = '20000000-0000-4000-8000-00000000000a';
const NSB = '20000000-0000-4000-8000-00000000000b';

const organisation = (uuid: string, name: string, extra: Record<string, unknown> = {}): VersionedEntity => ({
  uuid,
  name,
  type: 'organisation',
  active: true,
  state: 'ACTIVE',
  timeRange: { start: '2024-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
  segments: [],
  lastModified: '2024-01-01T00:00:00Z',
  lastModifiedBy: 'erex-administrator',
  comments: null,
  allInactive: false,
  orgId: name.toUpperCase().slice(0, 3),
  organisationTypes: ['RAILWAY_UNDERTAKING'],
  emails: `ops@${name.toLowerCase().replace(/\s/g, '')}.example`,
  ...extra,
});

const ORGS = [organisation(VY, 'Vy Tog AS'), organisation(NSB, 'Norske Tog')];

function mockUpload(answer: (xhr: FakeXhr) => FakeXhrAnswer) {
  const fake = createFakeXhr(answer);
  vi.stubGlobal('XMLHttpRequest', fake.Constructor);
  return fake;
}

describe('organisation overview', () => {
  it("says 'No entities selected' on export with nothing selected, and exports the selected uuids", async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'GET /api/domain/organisations': ORGS,
      'POST /api/excel/domain/export-org': new Response(new Blob(['xlsx']), { status: 200 }),
    });
    renderAdministration('/administration/organisation/overview');
    const rows = await screen.findAllByTestId('organisation-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[1]!).getByText('Vy Tog AS')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('No entities selected')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/excel/domain/export-org')).toBe(false);

    await user.click(within(rows[1]!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/excel/domain/export-org')).toBe(true));
    expect(calls.find((c) => c.url.pathname === '/api/excel/domain/export-org')!.body).toEqual({ uuids: [VY] });
  });

  it('offers a consumer neither export, import, registration nor the service account', async () => {
    mockFetch({ 'GET /api/domain/organisations': ORGS });
    renderAdministration('/administration/organisation/overview', { roles: ['consumer'] });
    await screen.findAllByTestId('organisation-row');
    for (const name of ['Export', 'Import', 'Register organisation', 'Service account']) {
      expect(screen.queryByText(name)).not.toBeInTheDocument();
    }
  });

  it('searches by name or orgId, keeping the search in the URL', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /api/domain/organisations': ORGS });
    renderAdministration('/administration/organisation/overview');
    await screen.findAllByTestId('organisation-row');
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'vy');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getAllByTestId('organisation-row')).toHaveLength(1));
    expect(screen.getByTestId('location')).toHaveTextContent('search=vy');
  });

  it('refuses a service-account file that is not valid JSON before sending it, and sends a valid one', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'GET /api/domain/organisations': ORGS,
      'POST /api/domain/organisations/organisationtype-with-credentials': {
        organisation: ORGS[0],
        credentials: { username: 'svc', kind: 'password', updatedAt: '2024-01-01T00:00:00Z', updatedBy: 'x' },
      },
    });
    renderAdministration('/administration/organisation/overview');
    const rows = await screen.findAllByTestId('organisation-row');
    await user.click(within(rows[1]!).getByRole('button', { name: 'Service account' }));
    const dialog = await screen.findByTestId('upload-dialog');
    const json = (content: string) => new File([content], 'service-account.json', { type: 'application/json' });

    await user.upload(within(dialog).getByTestId('upload-input'), [json('{ "username": ')]);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByText('The file content is not valid JSON')).toBeInTheDocument();
    const sent = () =>
      calls.filter((c) => c.url.pathname === '/api/domain/organisations/organisationtype-with-credentials');
    expect(sent()).toHaveLength(0);

    const content = JSON.stringify({ username: 'svc', password: 'from-file-1' });
    await user.upload(within(dialog).getByTestId('upload-input'), [json(content)]);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]!.body).toEqual({
      uuid: VY,
      organisationTypes: ['RAILWAY_UNDERTAKING'],
      serviceAccountFile: content,
    });
  });

  it('imports organisation workbooks through import-org and shows a failed file on the import error screen', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /api/domain/organisations': ORGS });
    const { requests } = mockUpload(() => ({
      body: {
        success: false,
        sheetParseResults: [
          {
            sheetName: 'Organisation',
            type: 'Organisation',
            rowsRead: 1,
            failures: [
              { errorMessage: 'Row 2, emails: At least one notification e-mail is required', type: 'Organisation' },
            ],
          },
        ],
      },
    }));
    renderAdministration('/administration/organisation/overview');
    await screen.findAllByTestId('organisation-row');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = await screen.findByTestId('upload-dialog');
    const xlsx = new File(['x'], 'orgs.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    await user.upload(within(dialog).getByTestId('upload-input'), [xlsx]);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    const errorScreen = await screen.findByTestId('import-error-screen');
    expect(
      within(errorScreen).getByText('Row 2, emails: At least one notification e-mail is required'),
    ).toBeInTheDocument();
    expect(new URL(requests[0]!.url, 'http://localhost').pathname).toBe('/api/excel/domain/import-org');
  });
});

describe('organisation registration', () => {
  it('asks for at least one organisation type and one notification e-mail, then saves the organisation', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'GET /api/domain/organisations': ORGS,
      'GET /api/domain/organisations/exchangeadmin/all': [],
      'POST /api/domain/save': organisation('20000000-0000-4000-8000-00000000000c', 'Flytoget'),
    });
    renderAdministration('/administration/organisation/registration');
    await user.type(await screen.findByLabelText(/^Name/), 'Flytoget');
    await user.type(screen.getByLabelText(/^Organisation id/), 'FLY');
    await user.type(screen.getByLabelText(/^Notification e-mails/), ' ; ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('At least one organisation type is required')).toBeInTheDocument();
    expect(screen.getByText('At least one notification e-mail is required')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/domain/save')).toBe(false);

    await user.click(screen.getByRole('textbox', { name: /^Organisation types/ }));
    await user.click(await screen.findByRole('option', { name: 'Railway undertaking' }));
    await user.keyboard('{Escape}');
    const emails = screen.getByLabelText(/^Notification e-mails/);
    await user.clear(emails);
    await user.type(emails, 'ops@flytoget.example; night@flytoget.example');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/domain/save')).toBe(true));
    expect(calls.find((c) => c.url.pathname === '/api/domain/save')!.body).toMatchObject({
      type: 'Organisation',
      name: 'Flytoget',
      orgId: 'FLY',
      organisationTypes: ['RAILWAY_UNDERTAKING'],
      emails: 'ops@flytoget.example;night@flytoget.example',
      exchangeAdminRef: null,
      timeRange: { start: '1970-01-01T00:00:00Z' },
    });
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/administration/organisation/overview'),
    );
    // A long form typed key by key: more than the default 5 s on a loaded machine.
  }, 30_000);

  it('shows the exchange admin to the erex-administrator only', async () => {
    mockFetch({ 'GET /api/domain/organisations': ORGS, 'GET /api/domain/organisations/exchangeadmin/all': [] });
    const { unmount } = renderAdministration('/administration/organisation/registration');
    expect(await screen.findByRole('textbox', { name: 'Exchange admin' })).toBeInTheDocument();
    unmount();
    renderAdministration('/administration/organisation/registration', { roles: ['settlement-area-responsible'] });
    await screen.findByLabelText(/^Name/);
    expect(screen.queryByRole('textbox', { name: 'Exchange admin' })).not.toBeInTheDocument();
  });
});
