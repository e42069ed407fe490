import { MESSAGES } from '@railwatt/contracts';
import { exchangeAdminsOf, organisationsOfUser } from '../../organisation/repository.js';
import { writesOnlyOwnFleet } from '../policy.js';
import { latestSegments } from '../repository.js';
import type { RecordError } from '../validation.js';
import type { BatchCheck, PlannedRecord } from './types.js';

/**
 * Fleet rules that depend on who saves (product.md §6), as a 403 error on each record they refuse:
 * traction units and the consumption points of traction units. One rule for both kinds, since a
 * point's unit (and a unit's owner) may be saved in the same batch.
 */
export const checkFleetPolicy: BatchCheck = async (ex, tenant, actor, planned, stored, trusted) => {
  if (trusted) return [];
  const units = planned.filter((p) => p.record.kind === 'tractionunit');
  const points = planned.filter((p) => p.record.kind === 'consumptionpoint');
  if (units.length === 0 && points.length === 0) return [];
  const own = await organisationsOfUser(ex, tenant, actor.username);
  const ownUuids = new Set(own.map((o) => o.uuid));
  const refuse = (p: PlannedRecord, message: string): RecordError => ({
    index: p.record.index,
    uuid: p.uuid,
    field: p.record.kind === 'tractionunit' ? 'owner' : 'tractionUnitRef',
    code: 'forbidden',
    status: 403,
    message,
  });

  // Owners of units in the batch and of stored units that points in the batch belong to.
  const unitOwner = new Map<string, string[]>();
  for (const u of units) {
    const old = (stored.get(u.uuid)?.segments ?? []).map((s) => String(s.attributes.owner));
    unitOwner.set(u.uuid, [String(u.record.attributes.owner), ...old]);
  }
  const pointUnits = [
    ...new Set(
      points.map((p) => p.record.attributes.tractionUnitRef).filter((r): r is string => typeof r === 'string'),
    ),
  ].filter((u) => !unitOwner.has(u));
  for (const s of await latestSegments(ex, tenant, pointUnits))
    unitOwner.set(s.entityUuid, [String(s.attributes.owner)]);
  // The unit each record touches: a unit itself, a point its traction unit.
  const touched = [
    ...units.map((p) => ({ p, unit: p.uuid as string | undefined })),
    ...points.map((p) => ({ p, unit: p.record.attributes.tractionUnitRef as string | undefined })),
  ];

  const errors: RecordError[] = [];
  if (writesOnlyOwnFleet(actor)) {
    for (const { p, unit } of touched) {
      const owners = unit ? (unitOwner.get(unit) ?? []) : [];
      if (unit === undefined || owners.some((o) => !ownUuids.has(o)))
        errors.push(refuse(p, 'A vehicle keeper changes only the traction units of its own organisations'));
    }
  }

  // Traction units connected to another exchange admin are refused (product.md §6, calls.md §8).
  const myAdmins = exchangeAdminsOf(own);
  if (myAdmins.size === 0) return errors;
  const ownerUuids = [...new Set([...unitOwner.values()].flat())];
  const owners = await latestSegments(ex, tenant, ownerUuids);
  const batchOrgs = new Map(
    planned.filter((p) => p.record.kind === 'organisation').map((p) => [p.uuid, p.record.attributes]),
  );
  // Both the stored and the new exchange admin of an owner count: changing the owner's exchange
  // admin in the same batch (or workbook) must not open the door (issue 6 §4).
  const otherAdmin = (ownerUuid: string) =>
    [
      batchOrgs.get(ownerUuid)?.exchangeAdminRef,
      owners.find((o) => o.entityUuid === ownerUuid)?.attributes.exchangeAdminRef,
    ].some((admin) => typeof admin === 'string' && !myAdmins.has(admin) && !myAdmins.has(ownerUuid));
  for (const { p, unit } of touched) {
    if (errors.some((e) => e.index === p.record.index)) continue;
    if ((unit ? (unitOwner.get(unit) ?? []) : []).some(otherAdmin))
      errors.push(refuse(p, MESSAGES.notAllowedOtherExchangeAdmin));
  }
  return errors;
};
