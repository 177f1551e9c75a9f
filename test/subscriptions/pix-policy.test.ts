/** The Central Bank's calendar of a Pix Automático charge (src/subscriptions/pix-retry-policy.ts): pure edges. */
import '../helpers/env';
import test from 'ava';
import {
  isAboveMaximum,
  isPixRetryDayAllowed,
  lastPixRetryDay,
  nextPixRetryDay,
  pixSendWindow,
  pixSendWindowState,
} from '../../src/subscriptions/pix-retry-policy';

test('the send window: from 10 to 2 days before the due date, both included', (t) => {
  t.deepEqual(pixSendWindow('2030-03-10'), { opens: '2030-02-28', closes: '2030-03-08' });
  t.is(pixSendWindowState('2030-02-27', '2030-03-10'), 'early');
  t.is(pixSendWindowState('2030-02-28', '2030-03-10'), 'open');
  t.is(pixSendWindowState('2030-03-08', '2030-03-10'), 'open');
  t.is(pixSendWindowState('2030-03-09', '2030-03-10'), 'missed');
  t.is(pixSendWindowState('2030-03-10', '2030-03-10'), 'missed');
  // Across a leap day and a year's end.
  t.deepEqual(pixSendWindow('2032-03-05'), { opens: '2032-02-24', closes: '2032-03-03' });
  t.deepEqual(pixSendWindow('2031-01-03'), { opens: '2030-12-24', closes: '2031-01-01' });
});

const ask = (over: Partial<Parameters<typeof nextPixRetryDay>[0]> = {}) =>
  nextPixRetryDay({
    retryPolicy: true,
    retriesDone: 0,
    dueDate: '2030-03-10',
    failedOn: '2030-03-10',
    today: '2030-03-10',
    followingDueDate: '2030-04-10',
    ...over,
  });

test('Allowed_3R_7D: at most 3 retries, each on a later day, none past 7 days after the due date', (t) => {
  t.is(ask(), '2030-03-11');
  t.is(ask({ retriesDone: 1, failedOn: '2030-03-11', today: '2030-03-11' }), '2030-03-12');
  t.is(ask({ retriesDone: 2, failedOn: '2030-03-12', today: '2030-03-12' }), '2030-03-13');
  t.is(ask({ retriesDone: 3, failedOn: '2030-03-13', today: '2030-03-13' }), null, 'a fourth retry never');
  t.is(ask({ retriesDone: 1, failedOn: '2030-03-16', today: '2030-03-16' }), '2030-03-17', 'the 7th day is in');
  t.is(ask({ retriesDone: 1, failedOn: '2030-03-17', today: '2030-03-17' }), null, 'the 8th day is out');
  t.is(ask({ today: '2030-03-14' }), '2030-03-15', 'a failure known late: the retry is after the day it was known');
  t.is(ask({ today: '2030-03-17' }), null, 'known too late to retry within 7 days');
});

test('no retry policy: the first failure is final', (t) => {
  t.is(ask({ retryPolicy: false }), null);
});

test('never on or past the next cycle: a weekly cycle retries up to the day before the next due date', (t) => {
  t.is(lastPixRetryDay('2030-03-10', '2030-03-17'), '2030-03-16');
  t.is(lastPixRetryDay('2030-03-10', '2030-04-10'), '2030-03-17');
  t.is(lastPixRetryDay('2030-03-10', null), '2030-03-17', 'the last cycle: 7 days');
  t.is(ask({ followingDueDate: '2030-03-17', retriesDone: 1, failedOn: '2030-03-16', today: '2030-03-16' }), null);
  t.is(
    ask({ followingDueDate: '2030-03-17', retriesDone: 1, failedOn: '2030-03-15', today: '2030-03-15' }),
    '2030-03-16',
  );
});

test('a retry may be sent from the day after the due date to the last retry day', (t) => {
  t.false(isPixRetryDayAllowed('2030-03-10', '2030-03-10', '2030-04-10'));
  t.true(isPixRetryDayAllowed('2030-03-11', '2030-03-10', '2030-04-10'));
  t.true(isPixRetryDayAllowed('2030-03-17', '2030-03-10', '2030-04-10'));
  t.false(isPixRetryDayAllowed('2030-03-18', '2030-03-10', '2030-04-10'));
  t.false(isPixRetryDayAllowed('2030-03-17', '2030-03-10', '2030-03-17'));
});

test('variable amounts: above the maximum is refused, at it is not; fixed mandates have no ceiling', (t) => {
  t.true(isAboveMaximum(9001, 9000));
  t.false(isAboveMaximum(9000, 9000));
  t.false(isAboveMaximum(1_000_000, null));
});
