/**
 * The balance closes when supply and its parts agree to the kWh (contracts priceAreaBalanceSchema:
 * "the balance closes when it is 0 (to the kWh)"): what is left rounds to 0 kWh.
 */
export const BALANCE_TOLERANCE_KWH = 0.5;

export const balanceCloses = (difference: number): boolean => Math.abs(difference) < BALANCE_TOLERANCE_KWH;

/** Sums a figure over rows. */
export const sumOf = <T>(rows: readonly T[], figure: (row: T) => number): number =>
  rows.reduce((sum, row) => sum + figure(row), 0);
