import type { FleetEntry, FleetPage } from '@railwatt/contracts';

export const UUID = {
  unitA: '11111111-1111-4111-8111-111111111111',
  unitB: '22222222-2222-4222-8222-222222222222',
  type: '33333333-3333-4333-8333-333333333333',
  ownerA: '44444444-4444-4444-8444-444444444444',
  ownerB: '55555555-5555-4555-8555-555555555555',
  cp: '66666666-6666-4666-8666-666666666666',
};

export function fleetEntry(overrides: Partial<FleetEntry> = {}): FleetEntry {
  return {
    uuid: UUID.unitA,
    evn: '917600100015',
    vkm: 'NSB',
    nvr: 'NO',
    description: 'El 18',
    tractionUnitName: 'El18-2241',
    type: 'El 18',
    typeRef: UUID.type,
    responsible: 'Vy',
    ownerRef: UUID.ownerA,
    informationChangeDate: '2024-02-01T10:00:00Z',
    status: 'ACTIVE',
    active: true,
    createdBy: 'keeper',
    emsType: 'EMS-A',
    emsId: 'EMS1',
    validFrom: '1970-01-01T00:00:00Z',
    validTo: '2070-01-01T00:00:00Z',
    writable: true,
    segmentCount: 1,
    consumptionPoints: [
      {
        uuid: UUID.cp,
        name: '917600100015EMS1',
        cpid: 'NO_NSB_917600100015_EMS1',
        emsId: 'EMS1',
        emsType: 'EMS-A',
        channels: 2,
      },
    ],
    ...overrides,
  };
}

export function fleetPage(
  content: FleetEntry[],
  { page = 0, size = 10, totalElements = content.length } = {},
): FleetPage {
  return {
    content,
    number: page,
    size,
    totalElements,
    totalPages: Math.max(1, Math.ceil(totalElements / size)),
  };
}

export const TWO_UNITS = [
  fleetEntry(),
  fleetEntry({
    uuid: UUID.unitB,
    evn: '917600100023',
    tractionUnitName: 'El18-2242',
    emsId: 'EMS2',
    consumptionPoints: [],
  }),
];

const OPEN_RANGE = { start: '1970-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' };

/** A versioned entity as GET /domain/{type}/id, /all and /organisations answer it (versionedEntitySchema). */
export function versionedEntity(overrides: Record<string, unknown> = {}) {
  return {
    uuid: UUID.unitA,
    name: 'El18-2241',
    type: 'TractionUnit',
    active: true,
    state: 'ACTIVE',
    timeRange: OPEN_RANGE,
    segments: [],
    lastModified: '2024-01-01T00:00:00Z',
    lastModifiedBy: 'keeper',
    comments: null,
    allInactive: false,
    ...overrides,
  };
}

/** An organisation as GET /domain/organisations lists it. */
export const organisation = (uuid: string, name: string) => versionedEntity({ uuid, name, type: 'Organisation' });
