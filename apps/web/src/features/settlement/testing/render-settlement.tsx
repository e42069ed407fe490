import type { render } from '@testing-library/react';
import type {
  PriceAreaBalance,
  ProcedureResult,
  Role,
  SettlementBaseVerificationRow,
  SettlementHour,
  SettlementLine,
} from '@railwatt/contracts';
import { procedureResult, renderScreens } from '../../../components/ui/screen-harness';
import type { AreaOption } from '../../../lib/stores/area-selection';
import { SettlementScreen } from '../components/settlement-screen';

export { mockFetch, type Call } from '../../../components/ui/screen-harness';

export const RUNNER: Role[] = ['erex-settlement-operator'];
export const AUDIT: Role[] = ['audit-settlement-area-responsible'];
export const CONSUMER: Role[] = ['consumer'];

export const NORWAY: AreaOption = {
  uuid: '00000000-0000-4000-8000-000000000001',
  name: 'Norway',
  key: 'norway',
  kind: 'norway',
  timeZone: 'Europe/Oslo',
  tenantId: '00000000-0000-4000-8000-000000000001',
};

export const BASE_PATH = '/settlementandverification/settlementbaseverification';
export const PROCESS_PATH = '/settlementandverification/settlementprocess';
export const TPA_PROCESS_PATH = '/settlementandverification/tpa-settlementprocess';

/** Renders the settlement screens at `path`, signed in with `roles` in the Norwegian area (Europe/Oslo). */
export function renderSettlement(path: string, roles: Role[] = RUNNER): ReturnType<typeof render> {
  return renderScreens(
    [
      { path: BASE_PATH, element: <SettlementScreen titleKey="routes.settlement.baseVerification" /> },
      { path: PROCESS_PATH, element: <SettlementScreen titleKey="routes.settlement.process" /> },
      { path: TPA_PROCESS_PATH, element: <SettlementScreen titleKey="routes.settlement.tpa.process" /> },
    ],
    path,
    { areas: [NORWAY], area: NORWAY, rolesInArea: roles, timeZone: NORWAY.timeZone },
  );
}

export const VY = { uuid: '22222222-2222-4222-8222-222222222222', type: 'Organisation', name: 'Vy' };
export const CARGO = { uuid: '33333333-3333-4333-8333-333333333333', type: 'Organisation', name: 'CargoNet' };
export const NO1 = { uuid: '44444444-4444-4444-8444-444444444444', type: 'PriceArea', name: 'NO1' };
export const NO2 = { uuid: '55555555-5555-4555-8555-555555555555', type: 'PriceArea', name: 'NO2' };
export const GRID = { uuid: '66666666-6666-4666-8666-666666666666', type: 'GridArea', name: 'Oslo grid' };

export function verificationRow(over: Partial<SettlementBaseVerificationRow> = {}): SettlementBaseVerificationRow {
  return {
    organisation: VY,
    priceArea: NO1,
    supplyEnergy: 1000,
    otherEnergy: 50,
    estimatedEnergy: 100,
    meteredEnergy: 800,
    onAccountEnergy: 0,
    lossesEnergy: 50,
    supplyCost: 500,
    meteredCost: 400,
    estimatedCost: 50,
    otherCost: 25,
    lossesCost: 25,
    refs: [],
    ...over,
  };
}

export function balance(over: Partial<PriceAreaBalance> = {}): PriceAreaBalance {
  return {
    priceArea: NO1,
    supplyEnergy: 1000,
    meteredEnergy: 800,
    estimatedEnergy: 100,
    otherEnergy: 50,
    lossesEnergy: 50,
    unbilledLossesEnergy: 0,
    difference: 0,
    hoursWithoutSupply: 0,
    hoursWithoutPrice: 0,
    averagePrice: 500,
    ...over,
  };
}

export function hour(hourStart: string, energy: number): SettlementHour {
  return { hourStart, gridArea: GRID, energy, price: 500, cost: (energy * 500) / 1000 };
}

/** A settlement result, run by the settlement operator. */
export const settlementResult = (over: Partial<ProcedureResult> = {}): ProcedureResult =>
  procedureResult({ procedureName: 'settlement', username: 'erex-settlement-operator', ...over });

export function line(over: Partial<SettlementLine> = {}): SettlementLine {
  return {
    procedureResultId: 7,
    organisation: VY,
    priceArea: NO1,
    meteredEnergy: 800,
    estimatedEnergy: 100,
    otherEnergy: 50,
    lossesEnergy: 50,
    onAccountEnergy: 0,
    supplyEnergy: 1000,
    meteredCost: 400,
    estimatedCost: 50,
    otherCost: 25,
    lossesCost: 25,
    onAccountCost: 0,
    supplyCost: 500,
    gridFeeCost: 20,
    energyFeeCost: 10,
    taxCost: 5,
    vatCost: 133.75,
    totalCost: 668.75,
    dueCost: 668.75,
    ...over,
  };
}

export const pageOf = <T,>(content: T[]) => ({ content, totalElements: content.length, totalPages: 1 });
