/** Sends one attempt of a subscription charge to the acquirer and records the outcome. */
import type { Job } from 'bullmq';
import { logger } from '../../src/platform/logger';
import { runChargeAttempt, type ChargeAttemptResult } from '../../src/subscriptions/charging';
import { CHARGE_QUEUE, type ChargeSubscriptionPayload } from '../charge-subscription';
import type { JobKind } from '../types';

export default async function chargeSubscription(job: Job<ChargeSubscriptionPayload>): Promise<ChargeAttemptResult> {
  const holdMs = Math.min(Math.max(job.data.holdAfterAcquirerMs ?? 0, 0), 60_000);
  const firstRun = job.attemptsMade === 0 && !job.stalledCounter;
  return runChargeAttempt(job.data, {
    rerun: !firstRun,
    afterAcquirerAnswer:
      holdMs && firstRun
        ? async (info) => {
            logger.info(
              { jobId: job.id, chargeId: info.chargeId, merchantOrderId: info.merchantOrderId },
              'charge answered by acquirer; holding before recording',
            );
            await new Promise((resolve) => setTimeout(resolve, holdMs));
          }
        : undefined,
  });
}

export const chargeSubscriptionJob: JobKind<ChargeSubscriptionPayload> = {
  queue: CHARGE_QUEUE,
  process: chargeSubscription,
};
