import { MODAL_AUTO_CLOSE_MS } from '@railwatt/contracts';
import { create } from 'zustand';
import { registerStoreReset } from './reset-registry';

/** Modal types (product.md §4). */
export const MODAL_TYPES = [
  'none',
  'confirmation',
  'progress',
  'error',
  'entities_upload',
  'timeseries_upload',
  'organisation_upload',
  'serviceaccount_upload',
  'userConfirmation',
  'userConfirmationNew',
  'setactive',
  'setinactive',
  'retire',
  'approve',
  'unapprove',
] as const;
export type ModalType = (typeof MODAL_TYPES)[number];

/** These close by themselves after 3 s (product.md §4). */
export const AUTO_CLOSING_MODALS: readonly ModalType[] = ['confirmation', 'error', 'progress'];

/** The modal entity of product.md §3. */
export interface ModalState {
  type: ModalType;
  message?: string;
  storeKey?: string;
  redirectTo?: string;
  parentPage?: string;
  yesAction?: () => void;
  noAction?: () => void;
}

interface ModalStore {
  modal: ModalState;
  open(modal: ModalState): void;
  close(): void;
}

const CLOSED: ModalState = { type: 'none' };
let autoClose: ReturnType<typeof setTimeout> | null = null;

const clearAutoClose = (): void => {
  if (autoClose !== null) clearTimeout(autoClose);
  autoClose = null;
};

export const useModalStore = create<ModalStore>()((set, get) => ({
  modal: CLOSED,
  open: (modal) => {
    clearAutoClose();
    set({ modal });
    if (AUTO_CLOSING_MODALS.includes(modal.type)) autoClose = setTimeout(() => get().close(), MODAL_AUTO_CLOSE_MS);
  },
  close: () => {
    clearAutoClose();
    set({ modal: CLOSED });
  },
}));

registerStoreReset(() => useModalStore.getState().close());
