/**
 * The pending and history views over the chargebacks received by notice (the projections of
 * projection.ts), scoped to the caller's establishments.
 */
import { ApiError } from '../platform/errors';
import { parseJson, trusted, type EstablishmentScope } from './common';
import { ChargebackModel, type Chargeback } from './model';
import {
  HISTORY_MAX_LIMIT,
  type ChargebackHistoryItemAnswer,
  type ChargebackItem,
  type PendingChargebackAnswer,
} from './schemas';

function scopeFilter(scope: EstablishmentScope): Record<string, unknown> {
  return scope === null ? {} : { establishmentNumber: trusted({ $in: scope }) };
}

/**
 * An id as the acquirer sends it: a number (idCase, idChargeback and establishmentNumber are
 * numbers in its items and notices; we store them as text). Text that is no safe integer (none
 * the acquirer sends) stays text.
 */
function asAcquirerSends(text: string): number | string;
function asAcquirerSends(text: string | null): number | string | null;
function asAcquirerSends(text: string | null): number | string | null {
  return text !== null && /^\d{1,15}$/.test(text) ? Number(text) : text;
}

/** The ids of a chargeback as the acquirer sends them, over whatever its notice's item held. */
function ids(chargeback: Chargeback) {
  return {
    idCase: asAcquirerSends(chargeback.idCase),
    idChargeback: asAcquirerSends(chargeback.idChargeback),
    establishmentNumber: asAcquirerSends(chargeback.establishmentNumber),
  };
}

/** What the acquirer sent in the chargeback's notice (none when it was accepted or refused before it came). */
function noticeItem(chargeback: Chargeback): ChargebackItem {
  return parseJson(chargeback.item) ?? {};
}

/** A pending chargeback was received by notice, which named its case. */
type ReceivedChargeback = Chargeback & { idCase: string };

export function pendingItem(chargeback: ReceivedChargeback): PendingChargebackAnswer {
  // idCase again: ids() types it for any chargeback, whose case may be unknown.
  return {
    ...noticeItem(chargeback),
    ...ids(chargeback),
    idCase: asAcquirerSends(chargeback.idCase),
    status: 'PENDING',
  };
}

/** Pending chargebacks, nearest treatment deadline first. */
export async function pendingChargebacks(scope: EstablishmentScope): Promise<PendingChargebackAnswer[]> {
  const rows = await ChargebackModel.find({ status: 'PENDING', ...scopeFilter(scope) })
    .sort({ treatmentDeadline: 1, _id: 1 })
    .lean<ReceivedChargeback[]>();
  return rows.map(pendingItem);
}

export async function pendingCount(scope: EstablishmentScope): Promise<number> {
  return ChargebackModel.countDocuments({ status: 'PENDING', ...scopeFilter(scope) });
}

/** A handled chargeback: one of these statuses, which the projection sets together with outcomeAt. */
type HandledChargeback = Chargeback & { status: 'ACCEPTED' | 'WON' | 'LOST'; outcomeAt: Date };

const OUTCOME: Record<HandledChargeback['status'], ChargebackHistoryItemAnswer['outcome']> = {
  ACCEPTED: 'ACCEPTED',
  WON: 'WIN',
  LOST: 'LOSS',
};

export function historyItem(chargeback: HandledChargeback): ChargebackHistoryItemAnswer {
  const lifecycle: ChargebackHistoryItemAnswer['lifecycle'] = parseJson(chargeback.lifecycle) ?? [];
  return {
    ...noticeItem(chargeback),
    ...ids(chargeback),
    // How the merchant answered through this service; null when it was answered elsewhere (acquirer portal, deadline).
    handling: chargeback.acceptedAt ? 'ACCEPTED' : chargeback.refusedAt ? 'REFUSED' : null,
    outcome: OUTCOME[chargeback.status],
    outcomeDate: chargeback.outcomeAt.toISOString(),
    acceptedAt: chargeback.acceptedAt?.toISOString() ?? null,
    refusedAt: chargeback.refusedAt?.toISOString() ?? null,
    lifecycle,
  };
}

const HISTORY_STATUSES: HandledChargeback['status'][] = ['ACCEPTED', 'WON', 'LOST'];

/**
 * Accepted chargebacks and refused ones with a final outcome, most recent outcome first. Each
 * query matches by equality on an indexed field (one per establishment of the merchant, or one per
 * status for the whole platform): `$in` is no index read on FerretDB. Each returns its first
 * offset + limit rows, so the merged page is the same as one query's.
 */
export async function chargebackHistory(
  scope: EstablishmentScope,
  limit: number,
  offset: number,
): Promise<ChargebackHistoryItemAnswer[]> {
  if (limit > HISTORY_MAX_LIMIT || limit < 1 || offset < 0)
    throw new ApiError(400, { limit: [`Must be between 1 and ${HISTORY_MAX_LIMIT}.`] });
  const filters =
    scope === null
      ? HISTORY_STATUSES.map((status) => ({ status }))
      : [...new Set(scope)].map((establishmentNumber) => ({
          establishmentNumber,
          status: trusted({ $in: HISTORY_STATUSES }),
        }));
  const parts = await Promise.all(
    filters.map((filter) =>
      ChargebackModel.find(filter)
        .sort({ outcomeAt: -1, _id: 1 })
        .limit(offset + limit)
        .lean<HandledChargeback[]>(),
    ),
  );
  const byOutcome = (a: Chargeback, b: Chargeback) =>
    (b.outcomeAt?.getTime() ?? 0) - (a.outcomeAt?.getTime() ?? 0) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
  return parts
    .flat()
    .sort(byOutcome)
    .slice(offset, offset + limit)
    .map(historyItem);
}
