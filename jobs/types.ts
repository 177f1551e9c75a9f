/** What a job kind is: its queue, a processor that calls services (never routes), and options. */
import type { Job, WorkerOptions } from 'bullmq';

export interface JobKind<T = any, R = unknown> {
  queue: string;
  process: (job: Job<T>) => Promise<R>;
  worker?: Partial<WorkerOptions>;
}
