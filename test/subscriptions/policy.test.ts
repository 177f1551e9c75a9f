import '../helpers/env';
import test from 'ava';
import { addDays, addMonths, dayOf, isCalendarDay, now, resetClock, setClock } from '../../src/subscriptions/clock';
import { isHardDecline, nextRetryDay } from '../../src/subscriptions/retry-policy';
import { cycleDueDate } from '../../src/subscriptions/calendar';

const ask = (over: Partial<Parameters<typeof nextRetryDay>[0]> = {}) =>
  nextRetryDay({
    retryEnabled: true,
    denialCode: '05',
    attemptsMade: 1,
    firstDeniedOn: '2030-01-10',
    today: '2030-01-10',
    retryDays: [1, 3, 5, 7],
    ...over,
  });

test('retries fall 1, 3, 5 and 7 days after the first denial, then stop', (t) => {
  t.is(ask({ attemptsMade: 1, today: '2030-01-10' }), '2030-01-11');
  t.is(ask({ attemptsMade: 2, today: '2030-01-11' }), '2030-01-13');
  t.is(ask({ attemptsMade: 3, today: '2030-01-13' }), '2030-01-15');
  t.is(ask({ attemptsMade: 4, today: '2030-01-15' }), '2030-01-17');
  t.is(ask({ attemptsMade: 5, today: '2030-01-17' }), null);
});

test('a retry is never scheduled for a day already past', (t) => {
  t.is(ask({ attemptsMade: 2, today: '2030-01-20' }), '2030-01-21');
});

test('hard declines are final, soft ones and transport errors retried', (t) => {
  for (const code of ['57', '78', '41', '43', '14', '54', '62', '59']) {
    t.true(isHardDecline(code), code);
    t.is(ask({ denialCode: code }), null, code);
  }
  for (const code of ['05', '5', '51', '91', '96', '99', '77', '70', 'transport_error']) {
    t.false(isHardDecline(code), code);
    t.is(ask({ denialCode: code }), '2030-01-11', code);
  }
});

test('retry off never schedules a retry', (t) => {
  t.is(ask({ retryEnabled: false }), null);
});

test('months count from the first due date and clamp to the month end', (t) => {
  const sub = { firstDueDate: '2030-01-31', billingCycle: 'monthly' as const, endDate: null, maxCycles: null };
  t.deepEqual(
    [0, 1, 2, 3].map((c) => cycleDueDate(sub, c)),
    ['2030-01-31', '2030-02-28', '2030-03-31', '2030-04-30'],
  );
  t.is(cycleDueDate({ ...sub, billingCycle: 'weekly' }, 2), '2030-02-14');
  t.is(cycleDueDate({ ...sub, billingCycle: 'annual' }, 2), '2032-01-31');
  t.is(cycleDueDate({ ...sub, maxCycles: 2 }, 2), null);
  t.is(cycleDueDate({ ...sub, endDate: '2030-03-30' }, 2), null);
  t.is(addMonths('2032-01-31', 1), '2032-02-29');
  t.is(addDays('2030-12-31', 1), '2031-01-01');
});

test('calendar days are checked for real', (t) => {
  t.true(isCalendarDay('2032-02-29'));
  t.false(isCalendarDay('2030-02-29'));
  t.false(isCalendarDay('2030-1-01'));
});

test('the clock can be set and reset', (t) => {
  setClock(new Date('2031-05-06T23:59:59Z'));
  t.is(dayOf(now()), '2031-05-06');
  resetClock();
  t.true(Math.abs(now().getTime() - Date.now()) < 1000);
});
