import { Button, Menu } from '@mantine/core';
import type { StatusAction } from '@railwatt/contracts';

export interface SetStatusMenuProps {
  /** The status changes this overview offers, in menu order. */
  actions: readonly StatusAction[];
  /** The button's text ('overview.set_status' of the caller's namespace). */
  label: string;
  /** The menu item of an action ('action.<action>' of the caller's namespace). */
  actionLabel: (action: StatusAction) => string;
  /** Nothing selected: nothing to change. */
  disabled: boolean;
  onPick: (action: StatusAction) => void;
}

/** The overview toolbar's "Set status" button: a menu of status changes for the selected rows. */
export function SetStatusMenu({ actions, label, actionLabel, disabled, onPick }: SetStatusMenuProps) {
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button size="xs" disabled={disabled}>
          {label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((a) => (
          <Menu.Item key={a} onClick={() => onPick(a)}>
            {actionLabel(a)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
