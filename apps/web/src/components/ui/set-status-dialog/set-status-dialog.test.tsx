import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderUi } from '../test-harness';
import { SetStatusDialog } from './set-status-dialog';
import { dayInZone, dayStartInZone, parseDayInput } from './zoned-date';

describe('set-status dialog', () => {
  it('refuses a range whose from is not before its to, with the verbatim messages', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderUi(
      <SetStatusDialog
        opened
        action="retire"
        count={2}
        onClose={() => {}}
        onSubmit={onSubmit}
        defaultFrom="2024-05-10"
      />,
    );
    expect(screen.getByTestId('set-status-dialog')).toBeInTheDocument();
    expect(screen.getByText('Applies to 2 selected entities')).toBeInTheDocument();
    const to = screen.getByLabelText('Valid to');
    await user.type(to, '01.05.2024');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('From date must be before to date')).toBeInTheDocument();
    expect(screen.getByText('To date must be after from date')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('hands over the range and the comment', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderUi(
      <SetStatusDialog
        opened
        action="approve"
        count={1}
        onClose={() => {}}
        onSubmit={onSubmit}
        defaultFrom="2024-05-10"
      />,
    );
    await user.type(screen.getByLabelText('Valid to'), '01.06.2024');
    await user.type(screen.getByLabelText('Comment'), 'billing ok');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({ from: '2024-05-10', to: '2024-06-01', comment: 'billing ok' }),
    );
  });

  it('hands over an empty "Valid to" as no end (open-ended), not as a day', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderUi(
      <SetStatusDialog
        opened
        action="setinactive"
        count={1}
        onClose={() => {}}
        onSubmit={onSubmit}
        defaultFrom="2025-03-01"
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ from: '2025-03-01', to: null, comment: '' }));
  });
});

describe('zoned dates', () => {
  it('starts a day at midnight in the area time zone, across DST', () => {
    expect(dayStartInZone('2024-01-15', 'Europe/Oslo')).toBe('2024-01-14T23:00:00Z');
    expect(dayStartInZone('2024-07-01', 'Europe/Oslo')).toBe('2024-06-30T22:00:00Z');
    expect(dayStartInZone('2024-03-31', 'Europe/Oslo')).toBe('2024-03-30T23:00:00Z');
    expect(dayInZone('2024-06-30T22:00:00Z', 'Europe/Oslo')).toBe('2024-07-01');
  });

  it('reads dd.MM.yyyy and rejects impossible days', () => {
    expect(parseDayInput('01.02.2024')).toBe('2024-02-01');
    expect(parseDayInput('31.02.2024')).toBeNull();
    expect(parseDayInput('2024-02-01')).toBe('2024-02-01');
  });
});
