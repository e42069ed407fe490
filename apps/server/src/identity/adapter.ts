import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/client.js';

interface Row {
  payload: AdapterPayload;
  consumed_at: string | null;
}

const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
]);

/**
 * oidc-provider storage in PostgreSQL (table identity_payload): sessions, interactions, grants,
 * codes and refresh tokens survive a restart, and several processes can share one database.
 */
export function createPgAdapter(database: Database): new (model: string) => Adapter {
  const select = `SELECT payload, consumed_at FROM identity_payload
                   WHERE model = $1 AND %COLUMN% = $2 AND (expires_at IS NULL OR expires_at > now())`;

  const toPayload = (row: Row | undefined): AdapterPayload | undefined => {
    if (!row) return undefined;
    return row.consumed_at
      ? { ...row.payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) }
      : row.payload;
  };

  return class PgAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const grantId = GRANTABLE.has(this.model) ? (payload.grantId ?? null) : null;
      await database.query(
        `INSERT INTO identity_payload (model, id, payload, grant_id, user_code, uid, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
           user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [
          this.model,
          id,
          JSON.stringify(payload),
          grantId,
          payload.userCode ?? null,
          payload.uid ?? null,
          typeof expiresIn === 'number' ? Math.ceil(expiresIn) : null,
        ],
      );
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const [row] = await database.query<Row>(select.replace('%COLUMN%', 'id'), [this.model, id]);
      return toPayload(row);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const [row] = await database.query<Row>(select.replace('%COLUMN%', 'user_code'), [this.model, userCode]);
      return toPayload(row);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const [row] = await database.query<Row>(select.replace('%COLUMN%', 'uid'), [this.model, uid]);
      return toPayload(row);
    }

    async consume(id: string): Promise<void> {
      await database.query('UPDATE identity_payload SET consumed_at = now() WHERE model = $1 AND id = $2', [
        this.model,
        id,
      ]);
    }

    async destroy(id: string): Promise<void> {
      await database.query('DELETE FROM identity_payload WHERE model = $1 AND id = $2', [this.model, id]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await database.query('DELETE FROM identity_payload WHERE grant_id = $1', [grantId]);
    }
  };
}

/** Removes expired rows; called at start (cheap, indexed). */
export async function purgeExpired(database: Database): Promise<void> {
  await database.query('DELETE FROM identity_payload WHERE expires_at < now()');
}
