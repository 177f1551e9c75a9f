/**
 * The suite's own report (docs/testing.md): how long each test file took, so the next slowdown is
 * seen. Ava runs each file in a worker process of its own (workerThreads false) and loads
 * record-time.ts there before the file (package.json's ava.require), which has that process write its
 * lifetime (from its start, tsx's loading included, to its exit, its processes' stopping included)
 * into TEST_TIMES_DIR as it exits.
 * test/suite.ts reads them after ava and prints them.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface FileTime {
  /** The test file, from the project's root: test/sales/pix.test.ts. */
  file: string;
  ms: number;
}

/** The running test file, from the project's root; undefined outside an ava worker (the bench). */
function testFile(): string | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { meta } = (require('ava') as { default: { meta: { file: string } } }).default;
    const file = meta.file.startsWith('file:') ? new URL(meta.file).pathname : meta.file;
    return path.relative(path.resolve(__dirname, '..', '..'), file);
  } catch {
    return undefined;
  }
}

/**
 * Writes this process's lifetime as its test file's time when it exits, if TEST_TIMES_DIR is set. The file
 * is asked of ava at exit: this runs before ava has loaded it (package.json's ava.require).
 */
export function recordTimeAtExit(dir = process.env.TEST_TIMES_DIR): void {
  if (!dir) return;
  process.once('exit', () => {
    const file = testFile();
    if (!file) return;
    const record: FileTime = { file, ms: Math.round(process.uptime() * 1000) };
    try {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${file.replace(/[\\/]+/g, '__')}.json`), JSON.stringify(record));
    } catch {
      // A report line lost is no failure of the test.
    }
  });
}

/** Every time recorded in dir, slowest first; a record that cannot be read is skipped. */
export function readTimes(dir: string): FileTime[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const times: FileTime[] = [];
  for (const name of names) {
    try {
      const record = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as FileTime;
      if (typeof record.file === 'string' && Number.isFinite(record.ms)) times.push(record);
    } catch {
      // Half-written by a worker killed as it exited: not counted.
    }
  }
  return times.sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The report printed at the end of npm test: every file's time by path, then the slowest files last,
 * where a reader of the run's end sees them.
 */
export function formatTimes(times: FileTime[], wallMs: number, slowest = 10): string {
  const byPath = [...times].sort((a, b) => a.file.localeCompare(b.file));
  const bySlowness = [...times].sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file));
  const width = Math.max(0, ...times.map((time) => time.file.length));
  const line = (time: FileTime) => `  ${time.file.padEnd(width)}  ${seconds(time.ms).padStart(8)}`;
  const summed = times.reduce((sum, time) => sum + time.ms, 0);
  return [
    `[test] time per test file (its worker process, from start to exit):`,
    ...byPath.map(line),
    `[test] the slowest ${Math.min(slowest, times.length)} files:`,
    ...bySlowness.slice(0, slowest).map(line),
    `[test] ava ran ${times.length} files in ${seconds(wallMs)}; their times add up to ${seconds(summed)}`,
    '',
  ].join('\n');
}
