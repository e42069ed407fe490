import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { useModalStore } from '../../lib/stores/modal-store';
import { ModalHost } from './modal-host';

function renderHost() {
  const router = createMemoryRouter([{ path: '*', element: <ModalHost /> }], { initialEntries: ['/start'] });
  render(
    <MantineProvider env="test">
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return router;
}

beforeEach(() => useModalStore.getState().close());

describe('modal host', () => {
  it('asks yes/no, runs the chosen action, closes and goes to the redirect target', () => {
    const yes = vi.fn();
    const no = vi.fn();
    const router = renderHost();
    act(() =>
      useModalStore.getState().open({
        type: 'userConfirmation',
        message: 'Sure?',
        yesAction: yes,
        noAction: no,
        redirectTo: '/fleet/overview',
      }),
    );
    expect(screen.getByText('Sure?')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(yes).toHaveBeenCalled();
    expect(no).not.toHaveBeenCalled();
    expect(useModalStore.getState().modal.type).toBe('none');
    expect(router.state.location.pathname).toBe('/fleet/overview');
  });

  it.each([
    'entities_upload',
    'organisation_upload',
    'serviceaccount_upload',
    'setactive',
    'setinactive',
    'retire',
    'approve',
    'unapprove',
  ] as const)('opens and closes the %s shell', (type) => {
    renderHost();
    act(() => useModalStore.getState().open({ type }));
    expect(screen.getByTestId('not-built')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(useModalStore.getState().modal.type).toBe('none');
  });

  it('opens the time-series upload dialog for timeseries_upload; closing it resets to none', async () => {
    const user = userEvent.setup();
    renderHost();
    act(() => useModalStore.getState().open({ type: 'timeseries_upload' }));
    const dialog = await screen.findByTestId('upload-dialog');
    expect(dialog).toHaveAttribute('data-modal-type', 'timeseries_upload');
    expect(await screen.findByText('Upload time series')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(useModalStore.getState().modal.type).toBe('none');
  });
});
