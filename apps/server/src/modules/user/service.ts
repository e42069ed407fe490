import type { Me, SettlementArea } from '@railwatt/contracts';
import { holdsFunctionIn } from '@railwatt/contracts';
import type { Database } from '../../db/client.js';
import type { AuthContext } from '../../plugins/auth.js';
import { listAreas } from './repository.js';

/** The signed-in user as the token describes them. */
export function me(auth: AuthContext): Me {
  return {
    username: auth.username,
    firstName: auth.firstName,
    lastName: auth.lastName,
    displayName: auth.displayName,
    marketFunctions: auth.functions.map((f) => ({ role: f.role, areaId: f.areaId })),
  };
}

/** The areas in which the token holds at least one function (an unscoped function holds everywhere). */
export async function settlementAreas(database: Database, auth: AuthContext): Promise<SettlementArea[]> {
  const areas = await listAreas(database);
  return areas
    .filter((area) => holdsFunctionIn(auth.functions, area.uuid))
    .map(({ uuid, name, timeZone, settlementPartner }) => ({ uuid, name, timeZone, settlementPartner }));
}
