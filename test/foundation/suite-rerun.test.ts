import test from 'ava';
import { failedTestFiles } from '../suite';

const files = ['test/sales/refunds.test.ts', 'test/refunds.test.ts', 'test/checkout/pay.test.ts'];

test('a failed test is traced to its file by the longest path its title begins with', (t) => {
  const output = '  ✔ checkout › pay › fine\n  \u001b[31m✘ [fail]: sales › refunds › twenty at once\u001b[39m boom\n';
  t.deepEqual(failedTestFiles(output, files), ['test/sales/refunds.test.ts']);
  t.deepEqual(failedTestFiles('  ✘ [fail]: test › refunds › alone boom\n', files), ['test/refunds.test.ts']);
  t.deepEqual(failedTestFiles('  ✘ [fail]: refunds › either boom\n', files), [
    'test/refunds.test.ts',
    'test/sales/refunds.test.ts',
  ]);
});

test('files named by an uncaught exception, a timeout or a crash are run again', (t) => {
  const output = [
    'Uncaught exception in test/checkout/pay.test.ts',
    '✘ Timed out while running tests',
    '2 tests were pending in test/sales/refunds.test.ts',
  ].join('\n');
  t.deepEqual(failedTestFiles(output, files), ['test/checkout/pay.test.ts', 'test/sales/refunds.test.ts']);
});

test('a failure no file accounts for runs nothing again', (t) => {
  t.is(failedTestFiles('  ✘ [fail]: contacts › list boom\n', files), null);
  t.is(failedTestFiles('✘ Internal error\n  ✘ [fail]: sales › refunds › x boom\n', files), null);
  t.is(failedTestFiles('Uncaught exception in test/elsewhere.test.ts\n', files), null);
  t.is(failedTestFiles('  1 test failed\n', files), null);
});
