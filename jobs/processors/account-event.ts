/** Fans a recorded account event out to the merchant's subscribed webhook endpoints. */
import type { Job } from 'bullmq';
import { fanOutStoredEvent } from '../../src/events/recording';
import { accountEventJob, type AccountEventJob } from '../account-event';
import { jobKind } from '../types';

export default async function fanOutAccountEvent(job: Job<AccountEventJob>) {
  return { deliveries: await fanOutStoredEvent(job.data.eventId) };
}

export const accountEventProcessor = jobKind(accountEventJob, fanOutAccountEvent);
