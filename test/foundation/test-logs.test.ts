import '../helpers/env';
import { spawn } from 'node:child_process';
import path from 'node:path';
import test from 'ava';
import { ROOT } from '../helpers/processes';

/** Runs ava on the fixture file in a process of its own; its whole output, stdout and stderr. */
function runFixture(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      path.join(ROOT, 'node_modules', '.bin', 'ava'),
      ['--config', 'test/foundation/test-logs.ava.config.mjs'],
      {
        cwd: ROOT,
        env: process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

test('a passing test prints only its result; a failing one prints what its processes logged', async (t) => {
  const { code, output } = await runFixture();
  t.is(code, 1, output);
  const [passing, failing] = output.split(/✘ \[fail\]: fails after its process and this one logged/);
  t.truthy(failing, output);
  t.regex(passing, /✔ passes while logging a warning and a deliberate fault/);
  t.notRegex(
    passing,
    /"level"|fixture: a warning|deliberate fault of a passing test/,
    'nothing of the passing test is printed as it runs',
  );
  // Under the failing test: its own logs (the fault and its stack) and its child process's.
  t.regex(failing, /test-logs-fixture\.in-process\.log while the test ran/);
  t.regex(failing, /fixture: the failing test logged this/);
  t.regex(failing, /Error: fixture: the fault that fails the test/);
  t.regex(failing, /test-logs-fixture\.sandbox\.log while the test ran/);
  t.regex(failing, /acquirer sandbox listening on/);
  t.notRegex(failing, /fixture: a warning of a passing test/, "the earlier test's logs are not its");
});
