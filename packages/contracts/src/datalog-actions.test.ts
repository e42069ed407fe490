import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from './roles.js';
import { MESSAGE_STATUSES, MESSAGE_TYPE_VALUES, MESSAGE_TYPES as T } from './datalog.js';
import { actionVerdict, allowedActions, CEBD_BLOCK_FILE_NAME, type DataLogAction } from './datalog-actions.js';

/**
 * calls.md §4 "Actions on a message (who and when)", exhaustively: every action for every role,
 * every message type and every status. The expectations are written from the spec's sentences,
 * not from the module.
 */
const READERS: Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'audit-settlement-area-responsible',
  'erex-settlement-operator',
  'audit-erex-settlement-operator',
  'train-run-data-provider',
  'consumer',
  'exchange-operator',
];
const WHO: Record<string, Role[]> = {
  // product.md §6 "erex-administrator only: ... re-import and re-export of data log entries", the
  // reading calls.md §4 names beside its role lists (issue 17 item 9).
  reimport: ['erex-administrator'],
  reexportOutput: ['erex-administrator'],
  reexportAggregation: ['erex-administrator'],
  reorder: ['erex-administrator', 'erex-settlement-operator'],
  setToError: ['erex-administrator'],
  download: READERS,
  downloadResponse: READERS,
};

const REPORTS: string[] = [T.orderedReport, T.scheduledReport];

/** When the entry allows the action (whoever asks), in the spec's words. */
function entryAllows(action: DataLogAction, type: string, status: string, text = ''): boolean {
  switch (action) {
    case 'reimport': {
      if ([T.trainRunInput, T.trainRunCorrection, T.trainRunDelete, T.meteredEnergyAggregation].includes(type as never))
        return false;
      const excel = [T.excelDomainImport, T.excelOrganisationImport, T.excelTimeSeriesImport].includes(type as never);
      if ((status === 'REJECTED' || status === 'PARTLY_REJECTED') && !excel) return true;
      const onError = [
        T.degreeDaysImport,
        T.substationImport,
        T.fixedInstallationImport,
        T.nordpoolPriceImport,
        T.cebdImport,
      ].includes(type as never);
      return status === 'ERROR' && onError;
    }
    case 'reexport':
      if (type === T.meteredEnergyAggregation) return status === 'REJECTED' || status === 'ERROR';
      return status === 'ERROR' && (type === T.trainRunOutput || type === T.exportToConsumer);
    case 'reorder':
      return status === 'ERROR' && REPORTS.includes(type);
    case 'setToError':
      return REPORTS.includes(type) && status !== 'ERROR' && status !== 'OK';
    case 'download':
      if (REPORTS.includes(type)) return false;
      if (status === 'OK' && type === T.cebdValidation) return false;
      return !(status === 'RETRIED' && type !== T.meteredEnergyAggregation);
    case 'downloadResponse':
      return type === T.meteredEnergyAggregation && (status !== 'ERROR' || text.includes('parse error'));
  }
}

function whoMay(action: DataLogAction, type: string): Role[] {
  if (action === 'reexport')
    return type === T.meteredEnergyAggregation ? WHO.reexportAggregation! : WHO.reexportOutput!;
  return WHO[action]!;
}

const ACTIONS: DataLogAction[] = ['reimport', 'reexport', 'reorder', 'setToError', 'download', 'downloadResponse'];

describe('data-log actions (calls.md §4)', () => {
  for (const action of ACTIONS) {
    it(`${action}: every role x every type x every status`, () => {
      const mismatches: string[] = [];
      for (const type of MESSAGE_TYPE_VALUES) {
        for (const status of MESSAGE_STATUSES) {
          const entry = { messageType: type, messageStatus: status, fileName: 'file.xml', messageText: 'x' };
          for (const role of ROLES) {
            const expected = !whoMay(action, type).includes(role)
              ? 'role'
              : entryAllows(action, type, status, 'x')
                ? 'allowed'
                : 'entry';
            const got = actionVerdict(action, entry, [role], 'netherlands');
            if (got !== expected) mismatches.push(`${role} ${type} ${status}: ${got}, expected ${expected}`);
          }
        }
      }
      expect(mismatches).toEqual([]);
    });
  }

  it('re-import and download need a file name; download not the CEBD block file', () => {
    const rejected = { messageType: T.sdvImport, messageStatus: 'REJECTED' };
    const admin: Role[] = ['erex-administrator'];
    expect(actionVerdict('reimport', { ...rejected, fileName: null }, admin, 'norway')).toBe('entry');
    expect(actionVerdict('reimport', { ...rejected, fileName: '  ' }, admin, 'norway')).toBe('entry');
    expect(actionVerdict('reimport', { ...rejected, fileName: 'a.sdv' }, admin, 'norway')).toBe('allowed');
    expect(actionVerdict('download', { ...rejected, fileName: null }, admin, 'norway')).toBe('entry');
    expect(actionVerdict('download', { ...rejected, fileName: CEBD_BLOCK_FILE_NAME }, admin, 'norway')).toBe('entry');
  });

  it('the response file only in the Netherlands, and for an ERROR only with a parse error', () => {
    const agg = { messageType: T.meteredEnergyAggregation, fileName: 'agg.xml' };
    const admin: Role[] = ['erex-administrator'];
    expect(actionVerdict('downloadResponse', { ...agg, messageStatus: 'OK' }, admin, 'norway')).toBe('entry');
    expect(actionVerdict('downloadResponse', { ...agg, messageStatus: 'OK' }, admin, 'netherlands')).toBe('allowed');
    const error = { ...agg, messageStatus: 'ERROR' };
    expect(actionVerdict('downloadResponse', { ...error, messageText: 'timeout' }, admin, 'netherlands')).toBe('entry');
    expect(
      actionVerdict(
        'downloadResponse',
        { ...error, messageText: 'Response: Parse error in line 3' },
        admin,
        'netherlands',
      ),
    ).toBe('allowed');
  });

  it('holding several roles: any one that may is enough', () => {
    const report = { messageType: T.orderedReport, messageStatus: 'ERROR', fileName: null };
    expect(actionVerdict('reorder', report, ['consumer', 'erex-settlement-operator'], 'norway')).toBe('allowed');
    expect(actionVerdict('reorder', report, [], 'norway')).toBe('role');
  });

  it('allowedActions: one flag per action, and the values count hidden for train-run deletes and reports', () => {
    const entry = { messageType: T.sdvImport, messageStatus: 'REJECTED', fileName: 'a.sdv' };
    expect(allowedActions(entry, ['erex-administrator'], 'norway')).toEqual({
      reimport: true,
      reexport: false,
      reorder: false,
      setToError: false,
      download: true,
      downloadResponse: false,
      showValuesCount: true,
    });
    for (const type of MESSAGE_TYPE_VALUES) {
      const shown = allowedActions({ messageType: type, messageStatus: 'OK' }, [], null).showValuesCount;
      expect({ type, shown }).toEqual({ type, shown: ![T.trainRunDelete, ...REPORTS].includes(type) });
    }
  });
});
