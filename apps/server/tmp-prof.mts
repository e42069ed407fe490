import { openDatabase } from './src/db/client.ts';
import { searchFleet } from './src/modules/fleet/service.ts';
import { fleetFilterSchema } from '@railwatt/contracts';
const d = await openDatabase({ url: 'postgres://postgres@127.0.0.1:5432/railwatt_fleet_dev' });
const tenant = '00000000-0000-4000-8000-000000000001';
for (const body of [{}, { sortBy: 'responsible', descendingOrder: true }, { sortBy: 'vkm' }, { evn: '7600' }, { emsId: 'EMS2' }]) {
  const f = fleetFilterSchema.parse(body);
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t = performance.now();
    await searchFleet(d.db, tenant, { username: 'erex-administrator', roles: ['erex-administrator'] }, f, { page: 3, size: 10 });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify(body), times[7]!.toFixed(1), times[13]!.toFixed(1));
}
await d.close();
