/**
 * A mandate as its recorded moves say. Each move is a MandateChange inserted once before the subscription's
 * copy of the mandate is written (mandate.ts confirmMandate), so a run that dies between the two leaves the copy
 * behind its records: every read of a Pix Automático subscription that acts on its mandate goes through
 * applyMandateChanges, which writes a lagging copy again. Its own file, below mandate.ts, because the charge path
 * (charging.ts) reads the mandate this way and mandate.ts records a charge through charging.ts.
 */
import { recordCancellation } from './cancellation';
import { recordOwed } from '../events/outbox';
import {
  MandateChangeModel,
  SubscriptionCancellationModel,
  SubscriptionModel,
  type Mandate,
  type MandateChange,
  type MandateStatus,
  type Subscription,
} from './model';

const RANK: Record<MandateStatus, number> = { CREATED: 0, APPROVED: 1, REJECTED: 2, EXPIRED: 2, CANCELLED: 2 };

/** The mandate field each move stamps with its time. */
const STAMPED: Record<MandateStatus, string | null> = {
  CREATED: null,
  APPROVED: 'approvedAt',
  REJECTED: 'rejectedAt',
  EXPIRED: 'expiredAt',
  CANCELLED: 'cancelledAt',
};

/** The mandate fields a recorded move sets (without the `mandate.` prefix). */
function fieldsOf(change: MandateChange): Record<string, unknown> {
  const stamp = STAMPED[change.status];
  if (!stamp) return {};
  return {
    status: change.status,
    [stamp]: change.at,
    ...(change.status === 'CANCELLED' ? { cancelledBy: change.by } : {}),
    ...(change.status === 'REJECTED' || change.status === 'CANCELLED'
      ? { reasonCode: change.reasonCode, reason: change.reason }
      : {}),
  };
}

/** What the moves set on the mandate, applied in rank order (an ending move outranks the approval). */
function mandateFieldsOf(changes: MandateChange[]): Record<string, unknown> {
  return [...changes]
    .sort((a, b) => RANK[a.status] - RANK[b.status])
    .reduce((fields, change) => ({ ...fields, ...fieldsOf(change) }), {});
}

/**
 * The subscription with its mandate as its recorded moves say (a Pix Automático subscription's
 * read path): a copy that lags behind them is written again.
 */
export async function applyMandateChanges(sub: Subscription): Promise<Subscription> {
  if (!sub.mandate) return sub;
  const changes = await MandateChangeModel.find({ subscriptionId: sub._id }).lean<MandateChange[]>();
  if (!changes.length) return sub;
  const fields = mandateFieldsOf(changes);
  const restored = { ...sub, mandate: { ...sub.mandate, ...fields } as Mandate };
  const latest = changes.reduce((a, b) => (RANK[b.status] > RANK[a.status] ? b : a));
  if (restored.mandate.status !== sub.mandate.status) {
    const set = Object.fromEntries(Object.entries(fields).map(([key, value]) => [`mandate.${key}`, value]));
    await SubscriptionModel.updateOne({ _id: sub._id }, { $set: set });
  }
  // A mandate that ended (rejected, expired, cancelled) ends the subscription: no charge is sent after it.
  if (RANK[latest.status] === 2 && restored.status === 'active') {
    await recordOwed(SubscriptionModel, sub._id, await recordCancellation(sub, latest.at));
    const cancelled = await SubscriptionCancellationModel.findById(sub._id).lean();
    return { ...restored, status: 'cancelled', cancelledAt: cancelled?.cancelledAt ?? latest.at, nextDueDate: null };
  }
  return restored;
}
