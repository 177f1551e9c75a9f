/**
 * What a job kind is to the worker: its definition's queue, a processor that calls services (never
 * routes), and worker options.
 */
import type { Job, WorkerOptions } from 'bullmq';
import type { JobDefinition } from '../src/queue/job-definition';

export interface JobKind<Data = any, Result = any> {
  queue: string;
  process: (job: Job<Data, Result>) => Promise<Result>;
  worker?: Partial<WorkerOptions>;
}

/** A processor bound to its definition: it takes that definition's payload and gives its result. */
export function jobKind<Data, Result, Name extends string>(
  definition: JobDefinition<Data, Result, Name>,
  process: (job: Job<Data, Result, Name>) => Promise<Result>,
  worker?: Partial<WorkerOptions>,
): JobKind<Data, Result> {
  return { queue: definition.queue, process: process as JobKind<Data, Result>['process'], worker };
}
