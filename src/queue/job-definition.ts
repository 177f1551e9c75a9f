/**
 * One job kind on the wire: its queue, its one literal job name, and the types of its payload and
 * result, as BullMQ's Queue<Data, Result, Name> generics carry them. Each jobs/<kind>.ts declares
 * one with defineJob and builds its job ids and enqueue on it; producers and processors then agree
 * on the payload by type, and a job name cannot be misspelt.
 */
import type { Job, JobsOptions, Queue } from 'bullmq';
import { getQueue } from './queues';

export interface JobDefinition<Data, Result, Name extends string> {
  readonly queue: string;
  readonly name: Name;
  queueOf(): Queue<Data, Result, Name>;
  add(data: Data, options: JobsOptions): Promise<Job<Data, Result, Name>>;
  /** Several jobs in one Redis round trip. */
  addBulk(jobs: { data: Data; options: JobsOptions }[]): Promise<Job<Data, Result, Name>[]>;
}

/** `defineJob<Payload, Result>()(queue, name)`: the name's literal type is inferred from the argument. */
export function defineJob<Data, Result>() {
  return <Name extends string>(queue: string, name: Name): JobDefinition<Data, Result, Name> => {
    const queueOf = () => getQueue(queue) as unknown as Queue<Data, Result, Name>;
    // BullMQ types add()'s data through its ExtractDataType helper, which a generic Data does not narrow.
    type Add = (name: Name, data: Data, options: JobsOptions) => Promise<Job<Data, Result, Name>>;
    type AddBulk = (jobs: { name: Name; data: Data; opts: JobsOptions }[]) => Promise<Job<Data, Result, Name>[]>;
    const producer = () => queueOf() as unknown as { add: Add; addBulk: AddBulk };
    return {
      queue,
      name,
      queueOf,
      add: (data, options) => producer().add(name, data, options),
      addBulk: (jobs) => producer().addBulk(jobs.map(({ data, options }) => ({ name, data, opts: options }))),
    };
  };
}
