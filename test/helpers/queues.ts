/**
 * Waiting on the queues, for a test that asserts something did not happen twice: once no job that
 * could do it again is waiting, active, delayed or prioritized, it cannot happen later, so the count
 * is final. (A fixed pause "to give a duplicate every chance" only guesses how long that takes.)
 */
import { LINK_WEBHOOK_QUEUE } from '../../jobs/link-webhook';
import { ENDPOINT_WEBHOOK_QUEUE } from '../../jobs/endpoint-webhook';
import { ACCOUNT_EVENT_QUEUE } from '../../jobs/account-event';
import { getQueue } from '../../src/queue/queues';
import { eventually } from './processes';

/** The queues whose jobs deliver: account events' fan-out and endpoint deliveries, and link webhooks. */
export const DELIVERY_QUEUES = [ACCOUNT_EVENT_QUEUE, ENDPOINT_WEBHOOK_QUEUE, LINK_WEBHOOK_QUEUE];

const PENDING = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const;

/** The jobs of these queues not done yet, by queue and state (only those not 0). */
export async function pendingJobs(names: string[]): Promise<Record<string, Record<string, number>>> {
  const pending: Record<string, Record<string, number>> = {};
  for (const name of names) {
    const counts = await getQueue(name).getJobCounts(...PENDING);
    const left = Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
    if (Object.keys(left).length) pending[name] = left;
  }
  return pending;
}

/** Waits (eventually's deadline) until none of these queues has a job left to run. */
export async function untilQueuesIdle(names: string[] = DELIVERY_QUEUES, timeoutMs = 30_000): Promise<void> {
  let last: Record<string, Record<string, number>> = {};
  try {
    await eventually(async () => Object.keys((last = await pendingJobs(names))).length === 0, timeoutMs);
  } catch (error) {
    throw new Error(`${(error as Error).message}; still pending: ${JSON.stringify(last)}`);
  }
}
