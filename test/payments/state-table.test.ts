/**
 * The sale state table on its own: no database, no acquirer, only the rules.
 */
import test from 'ava';
import { AcquirerStatus } from '../../src/acquirer/client';
import type { Payment } from '../../src/payments/model';
import {
  effectiveSaleStatus,
  isUnnoticedPixPastExpiry,
  noticeMayMove,
  PIX_EXPIRY_GRACE_MS,
  SALE_OPERATIONS,
  settledFields,
  statusFromAcquirer,
  withFieldsSet,
} from '../../src/payments/state-table';

const card = { paymentMethod: 'card', status: 'PROCESSING' } as const;
const pix = { paymentMethod: 'pix', status: 'PROCESSING' } as const;

function sale(fields: Partial<Payment> = {}): Payment {
  return {
    _id: 1,
    paymentMethod: 'card',
    status: 'PROCESSING',
    acquirer: { paymentId: null },
    pix: null,
    capturedAt: null,
    ...fields,
  } as unknown as Payment;
}

test('acquirer statuses map to ours; pending and aborted depend on the method', (t) => {
  t.is(statusFromAcquirer(AcquirerStatus.Authorized, card), 'PRE_CAPTURED');
  t.is(statusFromAcquirer(AcquirerStatus.PaymentConfirmed, card), 'CONFIRMED');
  t.is(statusFromAcquirer(AcquirerStatus.Denied, card), 'DENIED');
  t.is(statusFromAcquirer(AcquirerStatus.Refunded, card), 'REFUNDED');
  t.is(statusFromAcquirer(AcquirerStatus.Pending, card), null, 'a card sale is never pending');
  t.is(statusFromAcquirer(AcquirerStatus.Pending, pix), 'PENDING');
  t.is(statusFromAcquirer(AcquirerStatus.Aborted, card), 'FAILED');
  t.is(statusFromAcquirer(AcquirerStatus.Aborted, pix), 'EXPIRED');
  t.is(statusFromAcquirer(AcquirerStatus.NotFinished, card), null, 'decides nothing');
  t.is(statusFromAcquirer(AcquirerStatus.Scheduled, card), null);
});

test('voided is a cancel of a pre-captured sale and a refund of a confirmed one', (t) => {
  t.is(statusFromAcquirer(AcquirerStatus.Voided, { paymentMethod: 'card', status: 'PRE_CAPTURED' }), 'CANCELLED');
  t.is(statusFromAcquirer(AcquirerStatus.Voided, { paymentMethod: 'card', status: 'CONFIRMED' }), 'REFUNDED');
});

test('each operation leaves one status for another, and the acquirer status that proves it maps there', (t) => {
  for (const [name, op] of Object.entries(SALE_OPERATIONS)) {
    t.not(op.from, op.to, name);
    for (const status of op.acquirerStatuses)
      t.is(statusFromAcquirer(status, { paymentMethod: 'card', status: op.from }), op.to, `${name} ${status}`);
  }
  t.is(SALE_OPERATIONS.capture.from, 'PRE_CAPTURED');
  t.is(SALE_OPERATIONS.refund.from, 'CONFIRMED');
});

test('an unpaid pix past its expiry reads expired; before it, and a card, read as stored', (t) => {
  const now = new Date('2026-11-26T12:00:00Z');
  const past = new Date(now.getTime() - 1000);
  const future = new Date(now.getTime() + 1000);
  t.is(
    effectiveSaleStatus(sale({ paymentMethod: 'pix', status: 'PENDING', pix: { expiresAt: past } as never }), now),
    'EXPIRED',
  );
  t.is(
    effectiveSaleStatus(sale({ paymentMethod: 'pix', status: 'PENDING', pix: { expiresAt: future } as never }), now),
    'PENDING',
  );
  t.is(effectiveSaleStatus(sale({ status: 'PRE_CAPTURED' }), now), 'PRE_CAPTURED');
});

test('a pending pix is asked about only once its expiry and the grace have passed', (t) => {
  const now = new Date('2026-11-26T12:00:00Z');
  const expiredAt = (ms: number) =>
    sale({
      paymentMethod: 'pix',
      status: 'PENDING',
      acquirer: { paymentId: 'p' } as never,
      pix: { expiresAt: new Date(now.getTime() - ms) } as never,
    });
  t.false(isUnnoticedPixPastExpiry(expiredAt(PIX_EXPIRY_GRACE_MS - 1000), now));
  t.true(isUnnoticedPixPastExpiry(expiredAt(PIX_EXPIRY_GRACE_MS + 1000), now));
  t.true(isUnnoticedPixPastExpiry(expiredAt(1000), now, 0));
  t.false(isUnnoticedPixPastExpiry({ ...expiredAt(PIX_EXPIRY_GRACE_MS + 1000), status: 'CONFIRMED' }, now));
});

test('what a move writes: the settled status, the acquirer fields, the dates of its kind, the flag cleared', (t) => {
  const confirmed = settledFields(sale({ status: 'PRE_CAPTURED' }), 'CONFIRMED', {
    status: AcquirerStatus.PaymentConfirmed,
    paymentId: 'pay-1',
    tid: 'tid-1',
  });
  t.like(confirmed, {
    status: 'CONFIRMED',
    'acquirer.status': AcquirerStatus.PaymentConfirmed,
    'acquirer.paymentId': 'pay-1',
    acquirerPaymentId: 'pay-1',
    'acquirer.tid': 'tid-1',
    reconciliation: null,
    reconciling: false,
  });
  t.true(confirmed.capturedAt instanceof Date);
  const denied = settledFields(sale(), 'DENIED', {
    status: AcquirerStatus.Denied,
    returnCode: '05',
    returnMessage: 'No',
  });
  t.deepEqual(denied.denial, { code: '05', message: 'No' });
  t.is(denied.capturedAt, undefined);
  const read = sale();
  const moved = withFieldsSet(read, { status: 'DENIED', 'acquirer.returnCode': '05' });
  t.is(moved.status, 'DENIED');
  t.is(moved.acquirer.returnCode, '05');
  t.is(read.acquirer.returnCode ?? null, null, 'the sale read is not changed');
  t.is(read.status, 'PROCESSING');
});

test('a notice never moves a sale the refunds own (a PIX with a refund in progress reads 12, as unpaid does)', (t) => {
  for (const status of ['CONFIRMED', 'PARTIALLY_REFUNDED', 'REFUNDED'] as const) t.false(noticeMayMove(status), status);
  for (const status of ['PENDING', 'PROCESSING', 'PRE_CAPTURED'] as const) t.true(noticeMayMove(status), status);
  // What the acquirer's 12 would read as without that rule.
  t.is(statusFromAcquirer(AcquirerStatus.Pending, { paymentMethod: 'pix', status: 'CONFIRMED' }), 'PENDING');
});
