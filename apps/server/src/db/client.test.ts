import { describe, expect, it, vi } from 'vitest';
import { databaseHealthy, fatalDatabaseHandler, isFatalEmbeddedError, openDatabase } from './client.js';

/** JSON nested `depth` deep: PGlite's jsonb parser overruns the WebAssembly stack at about a thousand. */
const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('a fatal embedded-database error', () => {
  it('is noticed once, marks the database unhealthy and reaches onFatal', async () => {
    const onFatal = vi.fn();
    const database = await openDatabase({ onFatal });
    try {
      expect(await databaseHealthy(database)).toBe(true);
      // An ordinary SQL error is not fatal.
      await expect(database.query('SELECT * FROM no_such_table')).rejects.toMatchObject({ code: '42P01' });
      expect(onFatal).not.toHaveBeenCalled();

      // The crash the JSON depth limit keeps requests from causing: the WebAssembly module aborts.
      await expect(database.query('SELECT $1::jsonb AS j', [deepJson(1100)])).rejects.toThrow();
      expect(onFatal).toHaveBeenCalledTimes(1);
      expect(isFatalEmbeddedError(onFatal.mock.calls[0]![0])).toBe(true);
      expect(database.fatalError).toBeDefined();
      expect(await databaseHealthy(database)).toBe(false);

      // Every later query fails too (that is why the process must go), but onFatal is not called again.
      await expect(database.query('SELECT 1')).rejects.toThrow();
      expect(onFatal).toHaveBeenCalledTimes(1);
    } finally {
      await database.close().catch(() => undefined);
    }
  });

  it('the handler server.ts wires logs one clear line and exits with status 1', () => {
    const lines: { object: Record<string, unknown>; message: string }[] = [];
    const exit = vi.fn();
    const handler = fatalDatabaseHandler({ fatal: (object, message) => lines.push({ object, message }) }, exit);
    const error = Object.assign(new Error('memory access out of bounds'), { name: 'RuntimeError' });
    handler(error);
    expect(exit).toHaveBeenCalledExactlyOnceWith(1);
    expect(lines).toEqual([
      {
        object: { err: error },
        message: 'embedded database failed fatally; exiting with status 1 so that a supervisor restarts the server',
      },
    ]);
  });

  it('tells fatal errors from ordinary ones', () => {
    expect(isFatalEmbeddedError(Object.assign(new Error('unreachable'), { name: 'RuntimeError' }))).toBe(true);
    expect(isFatalEmbeddedError(new Error('Aborted(). Build with -sASSERTIONS for more info.'))).toBe(true);
    expect(isFatalEmbeddedError(Object.assign(new Error('terminating'), { severity: 'FATAL' }))).toBe(true);
    expect(isFatalEmbeddedError(Object.assign(new Error('syntax'), { severity: 'ERROR', code: '42601' }))).toBe(false);
    expect(isFatalEmbeddedError('text')).toBe(false);
  });
});
