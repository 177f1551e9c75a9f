/**
 * Which local stacks (`npm start`) run from this checkout, so the admin CLI talks to the one the developer started
 * instead of the default database. Each running stack leaves a record in .data/stacks/<pid>.json (its INSTANCE, its
 * database, its web address) and removes it when it stops; a record whose process is gone (a stack killed outright)
 * is ignored and removed by the next reader.
 *
 * The CLI's rule (stackForCli): INSTANCE or MONGODB_URI set (even empty) is the developer's choice and wins; else
 * the one database that running stacks use; none running, the defaults; stacks on several databases, a refusal
 * naming each with what to set.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/project-root';

export const STACKS_DIR = path.join(PROJECT_ROOT, '.data', 'stacks');

export interface StackRecord {
  pid: number;
  /** INSTANCE as the stack resolved it ('' for the default stack). */
  instance: string;
  /** Its MONGODB_URI as resolved (the INSTANCE default or the one given); the file is git-ignored and only ours. */
  mongodbUri: string;
  queuePrefix: string;
  publicBaseUrl: string;
  startedAt: string;
}

/** What `npm start` runs as: a live process with this in its command line is a stack, not a reused pid. */
const START_ENTRY = path.join('src', 'devstack', 'start.ts');

function runsAStack(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(START_ENTRY);
  } catch {
    return false;
  }
}

/** Records this process as a running stack; returns what removes the record (also called on exit). */
export function recordStack(
  stack: Omit<StackRecord, 'pid' | 'startedAt'>,
  dir = STACKS_DIR,
  pid = process.pid,
): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${pid}.json`);
  const record: StackRecord = { pid, ...stack, startedAt: new Date().toISOString() };
  fs.writeFileSync(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  const remove = () => fs.rmSync(file, { force: true });
  process.once('exit', remove);
  return remove;
}

/** The stacks running now, oldest first; records of stacks that are gone are removed. */
export function runningStacks(dir = STACKS_DIR, alive: (pid: number) => boolean = runsAStack): StackRecord[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const stacks: StackRecord[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let record: StackRecord;
    try {
      record = JSON.parse(fs.readFileSync(file, 'utf8')) as StackRecord;
    } catch {
      continue; // being written, or removed meanwhile
    }
    if (alive(record.pid)) stacks.push(record);
    else fs.rmSync(file, { force: true });
  }
  return stacks.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/** The database of a connection string, for people (never its credentials). */
export function databaseOf(mongodbUri: string): string {
  return /^[^:]+:\/\/[^/]*\/([^?]*)/.exec(mongodbUri)?.[1] || '(none)';
}

/** How a person names a stack to the CLI. */
function describe(stack: StackRecord): string {
  const name = stack.instance ? `INSTANCE=${stack.instance}` : 'the default stack (INSTANCE unset)';
  return `${name}: database ${databaseOf(stack.mongodbUri)}, ${stack.publicBaseUrl}, pid ${stack.pid}`;
}

export type CliStack =
  | { kind: 'as set' }
  | { kind: 'none running' }
  | { kind: 'running'; stack: StackRecord; notice: string }
  | { kind: 'ambiguous'; message: string };

/** Which database the CLI should use, by the rule above. */
export function stackForCli(env: NodeJS.ProcessEnv, stacks: StackRecord[] = runningStacks()): CliStack {
  if (env.INSTANCE !== undefined || env.MONGODB_URI !== undefined) return { kind: 'as set' };
  // One choice per database (the oldest stack on it names it): the CLI needs only the database.
  const databases = new Map<string, StackRecord>();
  for (const stack of stacks) if (!databases.has(stack.mongodbUri)) databases.set(stack.mongodbUri, stack);
  if (databases.size === 0) return { kind: 'none running' };
  if (databases.size === 1) {
    const [stack] = databases.values();
    return { kind: 'running', stack, notice: `using the running stack, ${describe(stack)}` };
  }
  return {
    kind: 'ambiguous',
    message:
      `several stacks are running (${[...databases.values()].map(describe).join('; ')}): say which with ` +
      'INSTANCE=<name> npm run cli -- ... (INSTANCE= for the default stack), or MONGODB_URI',
  };
}

/** Points this process's configuration at the stack's database, before the configuration is read. */
export function useStack(stack: StackRecord, env: NodeJS.ProcessEnv = process.env): void {
  env.INSTANCE = stack.instance;
  env.MONGODB_URI = stack.mongodbUri;
}
