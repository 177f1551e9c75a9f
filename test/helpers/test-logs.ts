/**
 * A passing test file prints only ava's lines: the logs of its processes go to files under
 * .data/test-logs/ (git-ignored), one per process, named after the test file and rewritten by each
 * run of it. When a test fails, what each of those files gained while it ran is printed under it
 * (t.log). Tests of one file run concurrently, so that slice can hold a neighbour's lines too.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TestFn } from 'ava';

/**
 * ava's test function when this process runs under ava; undefined elsewhere (the bench starts
 * processes through the same helpers, and ava refuses to load outside its CLI).
 */
function avaTest(): TestFn | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('ava') as { default: TestFn }).default;
  } catch {
    return undefined;
  }
}

export const TEST_LOG_DIR = path.resolve(__dirname, '..', '..', '.data', 'test-logs');

/** What a failure prints at most per log file: the end, where the failure usually is. */
const MAX_PRINTED_BYTES = 64 * 1024;

/** The log files of this test file's processes, the in-process one first. */
const logFiles = new Set<string>();

/**
 * "test/payment-links/checkout.test.ts" -> "payment-links-checkout" (a fixture: "test/foundation/test-logs-fixture.ts"
 * -> "foundation-test-logs-fixture").
 */
function testFileLabel(): string {
  const test = avaTest();
  if (!test) return path.basename(process.argv[1] ?? 'process').replace(/\.[cm]?[jt]s$/, '');
  const file = test.meta.file.startsWith('file:') ? new URL(test.meta.file).pathname : test.meta.file;
  const relative = path.relative(path.resolve(__dirname, '..'), file);
  return relative.replace(/(\.test)?\.[cm]?[jt]s$/, '').replace(/[\\/]+/g, '-');
}

/** A new, empty log file of this test file (`.data/test-logs/<test file>.<name>.log`), kept for printing on failure. */
export function newLogFile(name: string): string {
  fs.mkdirSync(TEST_LOG_DIR, { recursive: true });
  let file = path.join(TEST_LOG_DIR, `${testFileLabel()}.${name}.log`);
  for (let n = 2; logFiles.has(file); n++) file = path.join(TEST_LOG_DIR, `${testFileLabel()}.${name}-${n}.log`);
  fs.writeFileSync(file, '');
  logFiles.add(file);
  return file;
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function readFrom(file: string, start: number): string {
  const end = sizeOf(file);
  const from = Math.max(start, end - MAX_PRINTED_BYTES);
  if (end <= from) return '';
  const buffer = Buffer.alloc(end - from);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, buffer, 0, buffer.length, from);
  } finally {
    fs.closeSync(fd);
  }
  return (from > start ? `[... ${from - start} bytes before, in ${file}]\n` : '') + buffer.toString('utf8');
}

/**
 * Hooks of every test file (installed by test/helpers/env.ts): note where each log was when a test started, print what
 * it gained if it failed.
 */
export function printLogsOfFailedTests(): void {
  const test = avaTest();
  if (!test) return;
  const startedAt = new Map<string, Map<string, number>>();
  const titleOf = (hookTitle: string) => hookTitle.replace(/^.*? hook for /, '');
  test.beforeEach((t) => {
    startedAt.set(titleOf(t.title), new Map([...logFiles].map((file) => [file, sizeOf(file)])));
  });
  test.afterEach.always((t) => {
    const title = titleOf(t.title);
    const offsets = startedAt.get(title);
    startedAt.delete(title);
    if (t.passed) return;
    for (const file of logFiles) {
      const text = readFrom(file, offsets?.get(file) ?? 0).trimEnd();
      if (text) t.log(`${path.relative(process.cwd(), file)} while the test ran:\n${text}`);
    }
  });
}
