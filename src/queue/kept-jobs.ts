/** What sweeps need of jobs Redis keeps: whether a record's job will still run, a failed job retried, fresh job ids. */
import crypto from 'node:crypto';
import type { Job, Queue } from 'bullmq';
import { logger } from '../platform/logger';

/**
 * Moves a failed job back to waiting. Schedulers run their sweeps at the same time, so another may
 * have retried (or BullMQ removed) the job first: that is not an error, the answer is 0.
 */
export async function retryFailedJob(job: Job): Promise<0 | 1> {
  try {
    await job.retry('failed');
    return 1;
  } catch (error) {
    logger.debug(
      { err: { message: (error as Error).message }, jobId: job.id },
      'failed job already retried or removed',
    );
    return 0;
  }
}

/**
 * The job of a stored record (a notice to apply): its id is unique to the record and to this
 * queueing, and is kept on the record. An id derived from content alone is refused by BullMQ
 * while Redis still holds a finished job under it (from an earlier run, another database on the
 * same Redis, or a job that ended without applying), and the record would never be applied.
 */
export function recordJobId(prefix: string, recordId: string): string {
  return `${prefix}-${recordId}-${crypto.randomBytes(6).toString('hex')}`;
}

/** Job states in which a job will still run by itself. */
const LIVE_JOB_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/** The job Redis keeps under `jobId` and its state, and whether it will still run by itself; undefined: none kept. */
export async function keptJob(
  queue: Queue,
  jobId: string | undefined | null,
): Promise<{ job: Job; state: string; willRun: boolean } | undefined> {
  const job = jobId ? await queue.getJob(jobId) : undefined;
  if (!job) return undefined;
  const state = await job.getState();
  return { job, state, willRun: LIVE_JOB_STATES.has(state) };
}

/** Job states in which a job has not started yet: whatever it reads, it reads after now. */
const NOT_STARTED_STATES = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/** Whether the job under `jobId` is kept and has not started yet (so it will read what was written before now). */
export async function jobNotStarted(queue: Queue, jobId: string | undefined | null): Promise<boolean> {
  const kept = await keptJob(queue, jobId);
  return Boolean(kept && NOT_STARTED_STATES.has(kept.state));
}

/** Whether the job under `jobId` will still run by itself; a sweep queues a record again only when it will not. */
export async function jobWillRun(queue: Queue, jobId: string | undefined | null): Promise<boolean> {
  return Boolean((await keptJob(queue, jobId))?.willRun);
}
