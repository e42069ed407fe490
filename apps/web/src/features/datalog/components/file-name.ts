/** calls.md §9: data-log file names over 39 characters are wrapped every 32. */
export const FILE_NAME_WRAP_OVER = 39;
export const FILE_NAME_WRAP_AT = 32;

/** The lines a file name is shown on: itself, or pieces of 32 characters when it is longer than 39. */
export function fileNameLines(name: string | null | undefined): string[] {
  if (!name) return [];
  if (name.length <= FILE_NAME_WRAP_OVER) return [name];
  const lines: string[] = [];
  for (let i = 0; i < name.length; i += FILE_NAME_WRAP_AT) lines.push(name.slice(i, i + FILE_NAME_WRAP_AT));
  return lines;
}

/** calls.md §4: a displayed status is red for REJECTED and ERROR. */
export const statusColor = (status: string): string =>
  status === 'REJECTED' || status === 'ERROR' ? 'red' : status === 'OK' ? 'green' : 'gray';
