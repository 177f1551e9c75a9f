import '../helpers/env';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { ROOT } from '../helpers/processes';
import { formatTimes, readTimes, type FileTime } from '../helpers/test-times';

/** Runs ava on the fixture file in a process of its own, recording into timesDir. */
function runFixture(timesDir: string, uptimeFile: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      path.join(ROOT, 'node_modules', '.bin', 'ava'),
      ['--config', 'test/foundation/suite-report.ava.config.mjs'],
      {
        cwd: ROOT,
        env: { ...process.env, TEST_TIMES_DIR: timesDir, FIXTURE_UPTIME_FILE: uptimeFile },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

test('a test file run by ava records its worker process lifetime, read back by the report', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-times-'));
  const uptimeFile = path.join(dir, 'uptime-at-test');
  try {
    const started = Date.now();
    const { code, output } = await runFixture(path.join(dir, 'times'), uptimeFile);
    const wall = Date.now() - started;
    t.is(code, 0, output);
    const times = readTimes(path.join(dir, 'times'));
    t.deepEqual(
      times.map((time) => time.file),
      ['test/foundation/suite-report-fixture.ts'],
    );
    // Written at exit: later than the test ran, within the nested ava's own run.
    const atTest = Number(fs.readFileSync(uptimeFile, 'utf8'));
    t.true(times[0].ms >= atTest, `${times[0].ms} ms recorded, ${atTest} ms already at the test`);
    t.true(times[0].ms <= wall, `${times[0].ms} ms recorded, ava ran ${wall} ms`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('reading skips what is no record, slowest first', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-times-'));
  try {
    fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ file: 'test/a.test.ts', ms: 1200 }));
    fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify({ file: 'test/b.test.ts', ms: 98_000 }));
    fs.writeFileSync(path.join(dir, 'half.json'), '{"file":"test/c.te');
    fs.writeFileSync(path.join(dir, 'other.json'), JSON.stringify({ file: 'test/d.test.ts' }));
    t.deepEqual(readTimes(dir), [
      { file: 'test/b.test.ts', ms: 98_000 },
      { file: 'test/a.test.ts', ms: 1200 },
    ]);
    t.deepEqual(readTimes(path.join(dir, 'missing')), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the report lists every file by path, then the slowest ten, slowest first, and the total', (t) => {
  const times: FileTime[] = Array.from({ length: 12 }, (_, i) => ({
    file: `test/area/f${String(i).padStart(2, '0')}.test.ts`,
    ms: (i + 1) * 1000 + (i === 3 ? 100_000 : 0),
  }));
  const report = formatTimes(times, 123_456);
  const lines = report.trimEnd().split('\n');
  const slowestAt = lines.findIndex((line) => line === '[test] the slowest 10 files:');
  t.true(slowestAt > 0, report);
  const everyFile = lines.slice(1, slowestAt);
  t.deepEqual(
    everyFile.map((line) => line.trim().split(/\s+/)[0]),
    times.map((time) => time.file),
  );
  const slowest = lines.slice(slowestAt + 1, slowestAt + 11).map((line) => line.trim().split(/\s+/));
  t.deepEqual(
    slowest.map(([file, s]) => `${file} ${s}`),
    [
      'test/area/f03.test.ts 104.0',
      'test/area/f11.test.ts 12.0',
      'test/area/f10.test.ts 11.0',
      'test/area/f09.test.ts 10.0',
      'test/area/f08.test.ts 9.0',
      'test/area/f07.test.ts 8.0',
      'test/area/f06.test.ts 7.0',
      'test/area/f05.test.ts 6.0',
      'test/area/f04.test.ts 5.0',
      'test/area/f02.test.ts 3.0',
    ],
  );
  t.is(lines.at(-1), '[test] ava ran 12 files in 123.5 s; their times add up to 178.0 s');
});
