/**
 * The Procfile: what production runs (compiled JavaScript under dist/, plain node) and what `npm start` runs. A run
 * from the TypeScript source (the dev loop, a fresh clone before any `npm run build`) runs each process from its
 * source with tsx instead, so it never runs a stale or missing build; a run from dist/ runs the Procfile as written.
 *
 * One entry is no process: `release` (the name platforms that read Procfiles give it) is a command run once to its
 * end, after the old processes stop and before the new ones start: our migrations (workers/migrate.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config';

export interface ProcfileEntry {
  name: string;
  command: string[];
}

export function readProcfile(file = path.join(PROJECT_ROOT, 'Procfile')): ProcfileEntry[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => /^([A-Za-z0-9_-]+):\s*(.+)$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => Boolean(m))
    .map((m) => ({ name: m[1], command: m[2].split(/\s+/) }));
}

const COMPILED_FILE = /^dist\/(.+)\.js$/;

/** `node --enable-source-maps dist/x/y.js` as run from the source: `node --import tsx x/y.ts`. */
export function fromSource(command: string[]): string[] {
  const [program, ...args] = command;
  const file = args.findIndex((arg) => COMPILED_FILE.test(arg));
  if (program !== 'node' || file < 0) return command;
  const flags = args.slice(0, file).filter((flag) => flag !== '--enable-source-maps');
  const source = args[file].replace(COMPILED_FILE, '$1.ts');
  return [program, ...flags, '--import', 'tsx', source, ...args.slice(file + 1)];
}

/** Whether this code runs compiled (from dist/) rather than from its TypeScript source. */
export const RUNNING_COMPILED = __filename.endsWith('.js');

/** The Procfile entry run to its end before the processes start, once per release. */
export const RELEASE_ENTRY = 'release';

/** The Procfile's commands as this run should start them: the release command apart from the processes. */
export function procfileCommands(file?: string): { release: ProcfileEntry | undefined; processes: ProcfileEntry[] } {
  const entries = readProcfile(file).map(({ name, command }) => ({
    name,
    command: RUNNING_COMPILED ? command : fromSource(command),
  }));
  return {
    release: entries.find((entry) => entry.name === RELEASE_ENTRY),
    processes: entries.filter((entry) => entry.name !== RELEASE_ENTRY),
  };
}
