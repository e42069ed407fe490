import type { ReactNode } from 'react';
import { Button } from '@mantine/core';
import type { StatusAction } from '@railwatt/contracts';
import { SetStatusMenu } from './set-status-menu';

export interface OverviewToolbarProps {
  /** The caller's namespace: 'overview.export', 'overview.set_status' and 'action.<action>'. */
  t: (key: string) => string;
  /** Export the selection; without it (no export right) there is no export button. */
  onExport?: () => void;
  /** The status changes offered; without them (no write right) there is no "Set status". */
  statusActions?: readonly StatusAction[];
  selectedCount: number;
  onPickStatus: (action: StatusAction) => void;
  /** Buttons of this overview only, between export and "Set status" (fleet's masterdata export). */
  children?: ReactNode;
}

/** The toolbar of an entity overview's table: export the selection, then set its status. */
export function OverviewToolbar({
  t,
  onExport,
  statusActions,
  selectedCount,
  onPickStatus,
  children,
}: OverviewToolbarProps) {
  return (
    <>
      {onExport && (
        <Button size="xs" variant="outline" onClick={onExport}>
          {t('overview.export')}
        </Button>
      )}
      {children}
      {statusActions && (
        <SetStatusMenu
          actions={statusActions}
          label={t('overview.set_status')}
          actionLabel={(a) => t(`action.${a}`)}
          disabled={selectedCount === 0}
          onPick={onPickStatus}
        />
      )}
    </>
  );
}
