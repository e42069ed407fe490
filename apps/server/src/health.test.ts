import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/app.js';

describe('GET /health asks the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const health = () => t.app.inject({ method: 'GET', url: '/health' });

  it('answers 200 when SELECT 1 answers', async () => {
    const response = await health();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 when the database query throws, and 200 again when it recovers', async () => {
    const query = t.database.query;
    t.database.query = async () => {
      throw new Error('connection refused');
    };
    try {
      const response = await health();
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'unavailable' });
    } finally {
      t.database.query = query;
    }
    expect((await health()).statusCode).toBe(200);
  });

  it('answers 503 once the embedded database failed fatally, even if a query would still answer', async () => {
    t.database.fatalError = new Error('memory access out of bounds');
    try {
      expect((await health()).statusCode).toBe(503);
    } finally {
      delete t.database.fatalError;
    }
  });
});
