/**
 * The fan-out of a recorded account event to the merchant's webhook endpoints (processor:
 * processors/account-event.ts): off the request, so a state change costs the event's insert only.
 * One job per event (its id fixed per event); the scheduler sweep fans out what a failed add left.
 */
import { defineJob } from '../src/queue/job-definition';

export const ACCOUNT_EVENT_QUEUE = 'account-event';

export interface AccountEventJob {
  eventId: string;
}

export const accountEventJob = defineJob<AccountEventJob, { deliveries: number }>()(ACCOUNT_EVENT_QUEUE, 'fan-out');

/** Event ids hold no ':' (evt_<kind>_<id>_<change>); the creation time guards against ids repeated after a reset. */
export function fanOutJobId(event: { _id: string; createdAt: Date }): string {
  return `fanout-${event._id}-${new Date(event.createdAt).getTime()}`;
}

export async function enqueueFanOut(event: { _id: string; createdAt: Date }): Promise<void> {
  await accountEventJob.add(
    { eventId: event._id },
    { jobId: fanOutJobId(event), attempts: 10, backoff: { type: 'exponential', delay: 1000 } },
  );
}
