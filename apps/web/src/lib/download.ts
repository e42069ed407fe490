/**
 * Saves a blob under a file name through a temporary link: how every export (xlsx, csv) reaches the
 * user. Without URL.createObjectURL (jsdom in tests) it does nothing.
 */
export function saveBlob(blob: Blob, fileName: string) {
  if (typeof URL.createObjectURL !== 'function') return;
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(href);
}
