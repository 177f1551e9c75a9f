/** Sends one attempt of a subscription charge to the acquirer and records the outcome. */
import { UnrecoverableError, type Job } from 'bullmq';
import { getConfig } from '../../config';
import { logger } from '../../src/platform/logger';
import { ChargeJobDisagrees, runChargeAttempt } from '../../src/subscriptions/charging';
import { type ChargeAttemptResult, type ChargeJobData, chargeSubscriptionJob } from '../charge-subscription';
import { jobKind } from '../types';

export default async function chargeSubscription(job: Job<ChargeJobData>): Promise<ChargeAttemptResult> {
  try {
    return await attempt(job);
  } catch (error) {
    // A job that disagrees with its subscription says the same on every retry: it is not retried.
    if (error instanceof ChargeJobDisagrees) throw new UnrecoverableError(error.message);
    throw error;
  }
}

async function attempt(job: Job<ChargeJobData>): Promise<ChargeAttemptResult> {
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
