/**
 * The queue of subscription charge attempts (processor: processors/charge-subscription.ts, worker
 * process only). Job ids are deterministic per subscription, due date and attempt, so two
 * schedulers at once, or one restarted mid-run, enqueue each attempt once.
 */
import type { Job } from 'bullmq';
import { defineJob } from '../src/queue/job-definition';

/** Plain data naming a subscription's cycle and attempt; the run reads the subscription itself. */
export interface ChargeJobData {
  subscriptionId: number;
  /** Due date of the cycle, YYYY-MM-DD. */
  dueDate: string;
  /** 1 for the cycle's first send, n for the (n-1)th retry. */
  attempt: number;
  /** The scheduler's day when it enqueued the job (its clock): retry days count from it. */
  today: string;
  /**
   * A cycle's first send only, from the scheduler: what the charge is made of, copied from the
   * subscription it read (fields that never change after creation, and the cycle of `dueDate`).
   * Never charged from: the run reads the subscription and refuses a job whose copy disagrees
   * with it (charging.ts checkCarriedCycle). Jobs without it (the recovery pass's) are read alike.
   */
  cycle?: DueCycle;
}

export interface DueCycle {
  merchantId: number;
  value: number;
  /** The cycle number of dueDate (0-based). */
  number: number;
  /** Due date of the cycle after it; null when dueDate is the subscription's last cycle. */
  followingDueDate: string | null;
}

export const CHARGE_QUEUE = 'subscription-charges';
export const CHARGE_JOB_NAME = 'charge-subscription';

/** Deterministic: the same cycle and attempt is one BullMQ job however often it is enqueued. */
export function chargeJobId(data: Pick<ChargeJobData, 'subscriptionId' | 'dueDate' | 'attempt'>): string {
  return `charge-${data.subscriptionId}-${data.dueDate}-${data.attempt}`;
}

/**
 * What one attempt came to (a rerun of a recorded attempt: already-recorded; a Pix Automático charge taken by the
 * acquirer: scheduled, until its due date's settlement).
 */
export type ChargeAttemptResult = 'confirmed' | 'denied' | 'scheduled' | 'already-recorded' | 'not-due';

export const chargeSubscriptionJob = defineJob<ChargeJobData, ChargeAttemptResult>()(CHARGE_QUEUE, CHARGE_JOB_NAME);

export function chargeQueue() {
  return chargeSubscriptionJob.queueOf();
}

/** Queues charge attempts in one Redis round trip (addBulk), each under its deterministic id. */
export async function enqueueCharges(
  jobs: ChargeJobData[],
): Promise<Job<ChargeJobData, ChargeAttemptResult, typeof CHARGE_JOB_NAME>[]> {
  if (!jobs.length) return [];
  return chargeSubscriptionJob.addBulk(jobs.map((data) => ({ data, options: { jobId: chargeJobId(data) } })));
}
