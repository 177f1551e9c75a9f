/** Sends one attempt of a subscription charge to the acquirer and records the outcome. */
import type { Job } from 'bullmq';
import { getConfig } from '../../config';
import { logger } from '../../src/platform/logger';
import { runChargeAttempt, type ChargeAttemptResult } from '../../src/subscriptions/charging';
import { type ChargeJobData, chargeSubscriptionJob } from '../charge-subscription';
import { jobKind } from '../types';

export default async function chargeSubscription(job: Job<ChargeJobData>): Promise<ChargeAttemptResult> {
  const holdMs = getConfig().worker.chargeHoldAfterAcquirerMs;
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

export const chargeSubscriptionProcessor = jobKind(chargeSubscriptionJob, chargeSubscription);
