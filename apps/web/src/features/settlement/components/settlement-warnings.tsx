import { Alert, Badge, Button, List, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ApiErrorText } from '../../../components/ui/api-error';
import { formatDateTime } from '../../../lib/format';
import { settlementWarningsQuery, useRunPriceAndSupply, type MonthRange } from '../api/settlement-queries';
import { useSettlementT } from '../hooks/use-settlement-t';

const nameOf = (ref: { uuid: string; name: string | null }) => ref.name ?? ref.uuid;

/**
 * A result's message as the page shows it: a corrected result no longer says who approved it (issue
 * 18 item 5). The server writes "Corrected by ..." when it corrects one; a result corrected before
 * that kept "Approved by ..." as the first part of its message, which is left out (the status says
 * Corrected).
 */
export function shownMessage(result: { status: string; message: string | null }): string | null {
  if (result.status !== 'corrected' || !result.message) return result.message;
  const rest = result.message.replace(/^Approved by [^;]*(; )?/, '');
  return rest === '' ? null : rest;
}

/**
 * What a controller must know before trusting a settlement result (issue 18 item 5), above its lines:
 * lines billed without fees, tax and VAT because no contract is valid in their price area; supply or
 * prices changed after price-and-supply priced the month (with a button that runs price-and-supply
 * again for the month, for those who may run it); prices recalculated after this settlement (run the
 * settlement again); energy allocated after pricing. Nothing when there is nothing to say.
 */
export function SettlementWarnings({
  result,
  range,
  timeZone,
  mayRun,
}: {
  result: { id: number; status: string };
  range: MonthRange;
  timeZone: string;
  mayRun: boolean;
}) {
  const { t } = useSettlementT();
  const warnings = useQuery(settlementWarningsQuery(result.id, result.status));
  const rerun = useRunPriceAndSupply();
  const w = warnings.data;
  if (warnings.error) return <ApiErrorText error={warnings.error} />;
  if (!w) return null;
  return (
    <Stack gap="xs" data-testid="settlement-warnings">
      {w.missingContracts.length > 0 && (
        <Alert color="red" variant="light" data-testid="warning-missing-contracts">
          <Text size="sm" fw={600}>
            {t('warnings.missingContracts', { count: w.missingContracts.length })}
          </Text>
          <List size="sm">
            {w.missingContracts.map((m) => (
              <List.Item key={`${m.organisation.uuid}:${m.priceArea.uuid}`}>
                {t('warnings.missingContract', {
                  organisation: nameOf(m.organisation),
                  priceArea: nameOf(m.priceArea),
                  count: m.days,
                })}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {w.supplyChanged && (
        <Alert color="orange" variant="light" data-testid="warning-supply-changed">
          <Text size="sm" fw={600}>
            {t('warnings.supplyChanged')}
          </Text>
          <Text size="sm">
            {t('warnings.supplyChangedDetail', {
              count: w.supplyChanged.values,
              pricedAt: formatDateTime(w.supplyChanged.pricedAt, timeZone),
              changedAt: formatDateTime(w.supplyChanged.changedAt, timeZone),
            })}
          </Text>
          <List size="sm">
            {w.supplyChanged.changes.map((c) => (
              <List.Item key={`${c.typeName}:${c.identifier}:${c.fileName ?? ''}`}>
                {c.fileName
                  ? t('warnings.changeInFile', { series: c.identifier, file: c.fileName })
                  : t('warnings.change', { series: c.identifier })}
              </List.Item>
            ))}
          </List>
          {mayRun && (
            <Button
              mt="xs"
              size="xs"
              variant="light"
              color="orange"
              loading={rerun.isPending}
              disabled={rerun.isSuccess}
              onClick={() => rerun.mutate({ range, timeZone })}
              data-testid="rerun-price-and-supply"
            >
              {t('warnings.rerunPriceAndSupply')}
            </Button>
          )}
          <ApiErrorText error={rerun.error} />
        </Alert>
      )}
      {/* Outside the warning: a quick run answers the warning (it becomes 'prices calculated again')
          before the refetch draws the page again, and the notice that it started must stay. */}
      {rerun.data && (
        <Text size="sm" role="status" data-testid="price-and-supply-started">
          {t('warnings.priceAndSupplyStarted', { id: rerun.data.id })}
        </Text>
      )}
      {w.repricedAfterSettlement && (
        <Alert color="orange" variant="light" data-testid="warning-repriced">
          <Text size="sm">
            {t('warnings.repriced', { pricedAt: formatDateTime(w.repricedAfterSettlement.pricedAt, timeZone) })}
          </Text>
        </Alert>
      )}
      {w.allocatedAfterPricing && (
        <Alert color="orange" variant="light" data-testid="warning-allocated-after-pricing">
          <Text size="sm">{t('warnings.allocatedAfterPricing', { count: w.allocatedAfterPricing.hours })}</Text>
        </Alert>
      )}
    </Stack>
  );
}

/**
 * The badge beside a line billed without fees, tax and VAT (no contract valid in its price area): the
 * warning's words for a screen reader and on hover; the summary above the table lists them too.
 */
export function LineContractWarning({
  result,
  organisation,
  priceArea,
}: {
  result: { id: number; status: string };
  organisation: string;
  priceArea: string;
}) {
  const { t } = useSettlementT();
  const warnings = useQuery(settlementWarningsQuery(result.id, result.status));
  const missing = warnings.data?.missingContracts.find(
    (m) => m.organisation.uuid === organisation && m.priceArea.uuid === priceArea,
  );
  if (!missing) return null;
  const text = t('warnings.missingContract', {
    organisation: nameOf(missing.organisation),
    priceArea: nameOf(missing.priceArea),
    count: missing.days,
  });
  return (
    <Tooltip label={text} multiline w={320}>
      <Badge color="red" variant="light" size="sm" tabIndex={0} data-testid="line-contract-warning">
        <span aria-hidden>⚠ </span>
        {t('warnings.noContract')}
        <VisuallyHidden>{`: ${text}`}</VisuallyHidden>
      </Badge>
    </Tooltip>
  );
}
