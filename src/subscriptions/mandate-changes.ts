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

/** The mandate fields a recorded move sets. */
function fieldsOf(change: MandateChange): Record<string, unknown> {
  const at = change.at;
  switch (change.status) {
    case 'APPROVED':
      return { 'mandate.status': 'APPROVED', 'mandate.approvedAt': at };
    case 'REJECTED':
      return {
        'mandate.status': 'REJECTED',
        'mandate.rejectedAt': at,
        'mandate.reasonCode': change.reasonCode,
        'mandate.reason': change.reason,
      };
    case 'EXPIRED':
      return { 'mandate.status': 'EXPIRED', 'mandate.expiredAt': at };
    case 'CANCELLED':
      return {
        'mandate.status': 'CANCELLED',
        'mandate.cancelledAt': at,
        'mandate.cancelledBy': change.by,
        'mandate.reasonCode': change.reasonCode,
        'mandate.reason': change.reason,
      };
    default:
      return {};
  }
}

function withChanges(sub: Subscription, changes: MandateChange[]): Subscription {
  const mandate = { ...sub.mandate! } as Record<string, unknown>;
  for (const change of [...changes].sort((a, b) => RANK[a.status] - RANK[b.status]))
    for (const [key, value] of Object.entries(fieldsOf(change))) mandate[key.slice('mandate.'.length)] = value;
  return { ...sub, mandate: mandate as unknown as Mandate };
}

/**
 * The subscription with its mandate as its recorded moves say (a Pix Automático subscription's
 * read path): a copy that lags behind them is written again.
 */
export async function applyMandateChanges(sub: Subscription): Promise<Subscription> {
  if (!sub.mandate) return sub;
  const changes = await MandateChangeModel.find({ subscriptionId: sub._id }).lean<MandateChange[]>();
  if (!changes.length) return sub;
  const restored = withChanges(sub, changes);
  const latest = changes.reduce((a, b) => (RANK[b.status] > RANK[a.status] ? b : a));
  if (restored.mandate!.status !== sub.mandate.status) {
    await SubscriptionModel.updateOne(
      { _id: sub._id },
      {
        $set: [...changes]
          .sort((a, b) => RANK[a.status] - RANK[b.status])
          .reduce((set, change) => ({ ...set, ...fieldsOf(change) }), {}),
      },
    );
  }
  // A mandate that ended (rejected, expired, cancelled) ends the subscription: no charge is sent after it.
  if (RANK[latest.status] === 2 && restored.status === 'active') {
    await recordOwed(SubscriptionModel, sub._id, await recordCancellation(sub, latest.at));
    const cancelled = await SubscriptionCancellationModel.findById(sub._id).lean();
    return { ...restored, status: 'cancelled', cancelledAt: cancelled?.cancelledAt ?? latest.at, nextDueDate: null };
  }
  return restored;
}
