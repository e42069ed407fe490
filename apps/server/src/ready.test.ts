import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { answersHealth, readyLine } from './ready.js';
import { createTestApp, type TestApp } from './test/app.js';

const DEMO = { user: 'erex-administrator', password: 'demo' };

describe('the ready line of npm start', () => {
  it('names the address, and the demo sign-in only on the embedded default with demo data', () => {
    expect(readyLine(loadConfig({}), DEMO)).toBe(
      'Railwatt is ready at http://localhost:8080 - sign in as erex-administrator / demo ' +
        '(the demo month of time series is loading in the background)',
    );
    expect(readyLine(loadConfig({ SEED_DEMO_TIMESERIES: 'false', PORT: '9000' }), DEMO)).toBe(
      'Railwatt is ready at http://localhost:9000 - sign in as erex-administrator / demo',
    );
    // PostgreSQL: no demo users unless asked for (issue 17 item 10), so no demo sign-in to offer.
    expect(readyLine(loadConfig({ DATABASE_URL: 'postgres://db/railwatt' }), DEMO)).toBe(
      'Railwatt is ready at http://localhost:8080',
    );
  });

  describe('is said only when /health answers over the socket', () => {
    let t: TestApp;
    let address: AddressInfo;
    beforeAll(async () => {
      t = await createTestApp();
      await t.app.listen({ port: 0, host: '0.0.0.0' });
      address = t.app.server.address() as AddressInfo;
    });
    afterAll(async () => t?.close());

    it('answers true while the server listens, false once it is closed', async () => {
      expect(await answersHealth(address)).toBe(true);
      await t.app.close();
      expect(await answersHealth(address, 1000)).toBe(false);
      expect(await answersHealth(null)).toBe(false);
    });
  });
});
