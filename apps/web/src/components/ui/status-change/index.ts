export { SetStatusMenu, type SetStatusMenuProps } from './set-status-menu';
export { useOverviewActions, type OverviewActionsOptions, type StatusChangeInput } from './use-overview-actions';
export { OverviewToolbar, type OverviewToolbarProps } from './overview-toolbar';
