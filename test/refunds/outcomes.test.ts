import test from 'ava';
import { outcomeFromVoidedAmount, refusalOf } from '../../src/refunds/outcomes';

test("the acquirer's cancel codes: low balance and too late fail with a reason, retry codes are retried", (t) => {
  for (const code of [43, 72, 76]) t.regex((refusalOf([{ Code: code, Message: 'x' }], 400) as any).reason, /balance/);
  t.like(refusalOf([{ Code: 40, Message: 'x' }], 400), { retry: false, code: '40' });
  t.regex((refusalOf([{ Code: 40, Message: 'x' }], 400) as any).reason, /too late/i);
  t.deepEqual(refusalOf([{ Code: 99, Message: 'wait' }], 400), { retry: true });
  t.deepEqual(refusalOf([{ Code: '98', Message: 'timeout' }], 400), { retry: true });
  t.like(refusalOf([{ Code: 777, Message: 'odd' }], 400), { retry: false, code: '777' });
  t.like(refusalOf([], 403), { retry: false, code: 'HTTP 403' });
});

test('VoidedAmount settles a void without an answer: happened, not happened, or neither', (t) => {
  t.is(outcomeFromVoidedAmount(5000, 3000, 2000), 'happened');
  t.is(outcomeFromVoidedAmount(3000, 3000, 2000), 'not-happened');
  t.is(outcomeFromVoidedAmount(4000, 3000, 2000), 'inconsistent');
  t.is(outcomeFromVoidedAmount(10000, 3000, 2000), 'inconsistent');
});
