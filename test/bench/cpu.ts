/**
 * CPU time by process, read from /proc/<pid>/stat (user + system), so a case can say where its time
 * goes on a machine where every process shares two cores: our processes (web, workers, baseline
 * server, sandbox), the bench itself (autocannon runs in it), and the store (FerretDB, every
 * PostgreSQL process) and Redis, found by command name at each reading. A PostgreSQL backend that
 * exits between two readings takes its time with it (the pools keep theirs open, so this is rare).
 * Linux only: elsewhere every reading is empty and the figure is left out.
 */
import fs from 'node:fs';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on every architecture Node supports. */
const TICKS_PER_SECOND = 100;

/** Processes found by their command name (/proc/<pid>/comm) at every reading, under one role each. */
const STORE_PROCESSES: Record<string, string> = {
  ferretdb: 'ferretdb',
  postgres: 'postgres',
  'redis-server': 'redis',
};

/** role -> CPU seconds used so far by the processes of that role. */
export type CpuReading = Map<string, number>;

/** A process's CPU seconds (all its threads), or one thread's (`thread`: its id). */
function cpuSecondsOf(pid: number, thread?: number): number | undefined {
  try {
    const stat = fs.readFileSync(
      thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`,
      'utf8',
    );
    // Fields after the command name (which may hold spaces), counted from field 3: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined; // gone, or not Linux
  }
}

function storePids(): Array<[string, number]> {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: Array<[string, number]> = [];
  for (const name of entries) {
    try {
      const role = STORE_PROCESSES[fs.readFileSync(`/proc/${name}/comm`, 'utf8').trim()];
      if (role) found.push([role, Number(name)]);
    } catch {
      // exited while listed
    }
  }
  return found;
}

/** A role's main-thread share is kept under this suffix (not added to the total). */
const MAIN_THREAD = ' main thread';

/**
 * CPU seconds by role now: `ours` names our processes by role (several pids may share one). For
 * ours, the main thread's own time is kept beside the process's (V8's compiler and garbage
 * collector threads, and libuv's pool, make the rest).
 */
export function readCpu(ours: Array<[role: string, pid: number | undefined]>): CpuReading {
  const reading: CpuReading = new Map();
  const add = (role: string, seconds: number | undefined) => {
    if (seconds !== undefined) reading.set(role, (reading.get(role) ?? 0) + seconds);
  };
  for (const [role, pid] of ours) {
    if (pid === undefined) continue;
    add(role, cpuSecondsOf(pid));
    add(`${role}${MAIN_THREAD}`, cpuSecondsOf(pid, pid));
  }
  for (const [role, pid] of [['bench', process.pid] as [string, number], ...storePids()]) add(role, cpuSecondsOf(pid));
  return reading;
}

/** CPU milliseconds per operation by role between two readings (roles that used none are left out). */
export function cpuPerOperation(before: CpuReading, after: CpuReading, operations: number): Record<string, number> {
  const perOperation: Record<string, number> = {};
  if (operations <= 0) return perOperation;
  let total = 0;
  for (const [role, seconds] of after) {
    const used = seconds - (before.get(role) ?? 0);
    if (used <= 0) continue;
    perOperation[role] = Math.round((used / operations) * 1000 * 100) / 100;
    if (!role.endsWith(MAIN_THREAD)) total += used;
  }
  if (total > 0) perOperation.total = Math.round((total / operations) * 1000 * 100) / 100;
  return perOperation;
}

/** "web 1.2 (main thread 0.9), ferretdb 0.9, postgres 0.4 (total 2.5)": largest first. */
export function describeCpu(perOperation: Record<string, number> | undefined): string {
  if (!perOperation || perOperation.total === undefined) return '-';
  const parts = Object.entries(perOperation)
    .filter(([role]) => role !== 'total' && !role.endsWith(MAIN_THREAD))
    .sort((a, b) => b[1] - a[1])
    .map(([role, ms]) => {
      const main = perOperation[`${role}${MAIN_THREAD}`];
      return main === undefined || ms < 0.1 ? `${role} ${ms}` : `${role} ${ms} (main thread ${main})`;
    });
  return `${parts.join(', ')} (total ${perOperation.total})`;
}
