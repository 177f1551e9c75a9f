/**
 * Run only by suite-report.test.ts, as a test file of its own (its name is outside the suite's
 * `*.test.ts` glob; suite-report.ava.config.mjs selects it): it notes how long its process had lived
 * when its test ran, which the time recorded at its exit must exceed. It imports nothing of ours: its time
 * is recorded all the same (ava.require).
 */
import fs from 'node:fs';
import test from 'ava';

test('notes its process uptime', (t) => {
  const uptimeMs = String(Math.round(process.uptime() * 1000));
  fs.writeFileSync(process.env.FIXTURE_UPTIME_FILE!, uptimeMs);
  // What suite-report.test.ts will read back, as written.
  t.is(fs.readFileSync(process.env.FIXTURE_UPTIME_FILE!, 'utf8'), uptimeMs);
});
