/**
 * Counts the database commands (round trips) this process sends while a piece of work runs, read
 * from the same counters /metrics serves (src/db/monitoring.ts). Work done by another process (a
 * worker) is not counted here: read that process's /metrics instead.
 *
 * Run such tests with test.serial: a concurrent test of the same file would add its commands.
 */
import { dbCommands } from '../../src/platform/metrics-registry';

export interface CommandCount {
  total: number;
  /** "collection command" -> count, e.g. "online_sales find": 1 */
  by: Record<string, number>;
}

async function snapshot(): Promise<Map<string, number>> {
  const { values } = await dbCommands.get();
  return new Map(values.map((v) => [`${v.labels.collection} ${v.labels.command}`, v.value]));
}

export async function countDbCommands<T>(work: () => Promise<T>): Promise<{ result: T; commands: CommandCount }> {
  const before = await snapshot();
  const result = await work();
  const after = await snapshot();
  const by: Record<string, number> = {};
  let total = 0;
  for (const [key, value] of after) {
    const delta = value - (before.get(key) ?? 0);
    if (delta > 0) {
      by[key] = delta;
      total += delta;
    }
  }
  return { result, commands: { total, by } };
}
