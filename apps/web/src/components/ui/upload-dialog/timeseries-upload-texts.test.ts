// @vitest-environment node
import { LANGUAGES, JOB_STATUSES, type TimeSeriesUploadResult } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/errors';
import { loadMessages } from '../../../lib/i18n';
import { uploadFailureMessage } from './timeseries-upload';
import { outcomeFromTimeSeriesAnswer } from './upload-state';

function keys(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

type Tree = Record<string, Record<string, Record<string, string>>>;

describe('time-series upload texts (locales/<lng>/timeseries-upload.json)', () => {
  it('English holds the upload failures of calls.md §8 verbatim and a label per job status', async () => {
    const en = ((await loadMessages('en')) as Tree).timeseriesUpload!;
    expect(en.error).toMatchObject({
      bad_data: 'Something is wrong with uploaded data',
      not_authorized: 'Not authorized',
      unknown: 'Failed to upload. Ask administrator for help',
    });
    expect(Object.keys((en.job as unknown as Tree).status!).sort()).toEqual([...JOB_STATUSES].sort());
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key of English, translated', async (lng) => {
    const en = ((await loadMessages('en')) as Tree).timeseriesUpload!;
    const other = ((await loadMessages(lng)) as Tree).timeseriesUpload!;
    expect(keys(other).sort()).toEqual(keys(en).sort());
    expect(other.error!.bad_data).not.toBe(en.error!.bad_data);
  });
});

describe('time-series upload outcome', () => {
  const base: TimeSeriesUploadResult = { success: true, sheetParseResults: [] };

  it('is finished_async with its jobs when the file is stored for a job, finished when imported at once', () => {
    const job = '6f0c8a52-3c1e-4a7e-9d55-1c2f3e4a5b6c';
    expect(outcomeFromTimeSeriesAnswer({ ...base, async: true, jobIds: [job] })).toMatchObject({
      status: 'finished_async',
      jobIds: [job],
    });
    expect(outcomeFromTimeSeriesAnswer(base).status).toBe('finished');
  });

  it('fails when success is false or a sheet has failures, async or not', () => {
    expect(outcomeFromTimeSeriesAnswer({ ...base, success: false, async: true }).status).toBe('failed');
    const failing = {
      ...base,
      async: true,
      sheetParseResults: [
        {
          sheetName: 'a',
          type: 'spot_price',
          rowsRead: 1,
          failures: [{ errorMessage: 'Start date missing', type: 'x' }],
        },
      ],
    };
    expect(outcomeFromTimeSeriesAnswer(failing)).toMatchObject({
      status: 'failed',
      failures: [{ errorMessage: 'Start date missing', sheetName: 'a' }],
    });
  });

  it("maps a refused file's status to its message; a 400's own messages win", () => {
    const t = (key: string) => key;
    const error = (status: number, envelope: ConstructorParameters<typeof ApiError>[2] = null) =>
      new ApiError(status, '', envelope);
    expect(uploadFailureMessage(error(400), t)).toBe('error.bad_data');
    expect(uploadFailureMessage(error(400, { message: 'Value x is invalid' }), t)).toBe('Value x is invalid');
    expect(
      uploadFailureMessage(
        error(400, { errors: [{ message: 'End date missing' }, { message: 'Start date missing' }] }),
        t,
      ),
    ).toBe('End date missing; Start date missing');
    expect(uploadFailureMessage(error(401), t)).toBe('error.not_authorized');
    expect(uploadFailureMessage(error(403), t)).toBe('error.not_authorized');
    expect(uploadFailureMessage(error(500), t)).toBe('error.unknown');
    expect(uploadFailureMessage(error(0), t)).toBe('error.unknown');
    expect(uploadFailureMessage(new Error('boom'), t)).toBe('error.unknown');
  });
});
