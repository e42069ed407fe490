import { describe, expect, it } from 'vitest';
import { fileNameLines, statusColor } from './file-name';

describe('data-log file names and statuses', () => {
  it('wraps names over 39 characters every 32 (calls.md §9)', () => {
    expect(fileNameLines('a'.repeat(39))).toEqual(['a'.repeat(39)]);
    const long = `${'a'.repeat(32)}${'b'.repeat(32)}cc`;
    expect(fileNameLines(long)).toEqual(['a'.repeat(32), 'b'.repeat(32), 'cc']);
    expect(fileNameLines(null)).toEqual([]);
  });

  it('colours REJECTED and ERROR red (calls.md §4)', () => {
    expect(statusColor('REJECTED')).toBe('red');
    expect(statusColor('ERROR')).toBe('red');
    expect(statusColor('PARTLY_REJECTED')).not.toBe('red');
    expect(statusColor('OK')).toBe('green');
  });
});
