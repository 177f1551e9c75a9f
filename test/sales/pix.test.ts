import '../helpers/env';
import crypto from 'node:crypto';
import test from 'ava';
import { eventually } from '../helpers/processes';
import { bearer, systemToken } from '../helpers/identity';
import { PaymentModel, PaymentNoticeModel, type Payment } from '../../src/payments/model';
import type { OwesEvents } from '../../src/events/owed-fields';
import { PAYMENT_NOTIFICATION_PATH, NOTIFICATION_SIGNATURE_HEADER } from '../../src/acquirer/client';
import { signNotice } from '../../src/sales';
import { requeueUnappliedPaymentNotices, sweepUnsettledSales } from '../../src/payments/sweeps';
import { NOTICE_QUEUE } from '../../jobs/apply-payment-notice';
import { RECONCILE_QUEUE } from '../../jobs/reconcile-sale';
import { getQueue } from '../../src/queue/queues';
import { getSaleByOrderId } from '../../src/acquirer/client';
import { payPix, pixSale, sandboxPost, PRE_CAPTURE, useSalesEnv } from './helpers';
import { callJson, send } from '../helpers/http';

const env = useSalesEnv();
const status = (id: number, token = env.merchant.merchantToken) =>
  callJson(env.app, 'GET', `/api/v1/online/sales/${id}/pix/status/`, bearer(token));

function postNotice(body: string, signature?: string) {
  return send(
    env.app,
    'POST',
    PAYMENT_NOTIFICATION_PATH,
    {
      'content-type': 'application/json',
      ...(signature ? { [NOTIFICATION_SIGNATURE_HEADER]: signature } : {}),
    },
    body,
  );
}

test('a pix sale is pending with its copy-and-paste code and cannot be captured or cancelled', async (t) => {
  const res = await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), pixSale());
  t.is(res.status, 200);
  const data = res.body.data;
  t.true(data.approved);
  t.is(data.sale_status, 'PENDING');
  t.is(data.payment_method, 'pix');
  t.regex(data.pix.qr_code, /^000201.*6304[0-9A-F]{4}$/);
  const expiresIn = Date.parse(data.pix.expires_at) - Date.now();
  t.true(expiresIn > 1700_000 && expiresIn <= 1800_000);
  t.is(data.card, null);
  const capture = await callJson(
    env.app,
    'PUT',
    `/api/v1/online/sales/${data.id}/capture/`,
    bearer(env.merchant.merchantToken),
  );
  t.is(capture.status, 400);
  t.regex(capture.body.detail, /PIX/);
  t.is(
    (
      await callJson(
        env.app,
        'PUT',
        `/api/v1/online/sales/${data.id}/cancel-capture/`,
        bearer(env.merchant.merchantToken),
      )
    ).status,
    400,
  );
  const read = await status(data.id);
  t.is(read.status, 200);
  t.is(read.body.data.sale_status, 'PENDING');
  t.false(read.body.data.paid);
  t.is(read.body.data.qr_code, data.pix.qr_code);
});

test('the acquirer notice confirms a paid pix sale, and a repeated notice changes nothing twice', async (t) => {
  const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), pixSale())).body.data;
  const paid = await payPix(env, sale.acquirer.payment_id);
  t.is(paid.status, 200);
  t.is(paid.body.notification.status, 200);
  const confirmed = await eventually(async () => {
    const read = await status(sale.id);
    return read.body.data.sale_status === 'CONFIRMED' && read.body.data;
  });
  t.true(confirmed.paid);
  t.truthy(confirmed.paid_at);
  // The sale as the notice left it: the confirming write, then the outbox's clear of the events it owed
  // (a second write, which moves updatedAt; read before it, the snapshot would differ from the clear, not
  // from the late notice below).
  const before = await eventually(async () => {
    const read = await PaymentModel.findById(sale.id).lean<Payment & OwesEvents>();
    return read?.status === 'CONFIRMED' && !read.eventsOwed ? read : null;
  });

  // The acquirer retries the same notice: stored once, applied once.
  const again = await payPix(env, sale.acquirer.payment_id);
  t.is(again.body.notification.status, 200);
  t.is(await PaymentNoticeModel.countDocuments({ paymentId: sale.acquirer.payment_id }), 1);

  // A late notice with another body is stored and applied, and changes nothing.
  const late = JSON.stringify({ PaymentId: sale.acquirer.payment_id, ChangeType: 1, Extra: 'late' });
  t.is((await postNotice(late, signNotice(late))).status, 200);
  const applied = await eventually(async () => {
    const notice = await PaymentNoticeModel.findOne({ raw: late }).lean();
    return notice?.appliedAt ? notice : null;
  });
  t.regex(applied!.result ?? '', /no change/);
  const after = await PaymentModel.findById(sale.id).lean();
  t.is(after?.status, 'CONFIRMED');
  t.deepEqual(after?.pix?.paidAt, before!.pix?.paidAt);
  t.deepEqual(after?.updatedAt, before!.updatedAt);
});

test('a notice with a bad or missing signature is 401 and not stored', async (t) => {
  const body = JSON.stringify({ PaymentId: 'f0f0f0f0-0000-0000-0000-000000000000', ChangeType: 1 });
  t.is((await postNotice(body)).status, 401);
  t.is((await postNotice(body, signNotice(body, 'another-secret-of-enough-length'))).status, 401);
  t.is((await postNotice(body, signNotice(`${body} `))).status, 401);
  t.is(await PaymentNoticeModel.countDocuments({ paymentId: 'f0f0f0f0-0000-0000-0000-000000000000' }), 0);
  const bad = JSON.stringify({ ChangeType: 'x' });
  const res = await postNotice(bad, signNotice(bad));
  t.is(res.status, 400);
});

test('a signed notice of the wrong shape is a 400 naming each bad field, and is not stored', async (t) => {
  const answers: Record<string, unknown> = {};
  for (const body of ['{"PaymentId": "", "ChangeType": "1"}', '{"PaymentId": 7, "ChangeType": 1.5}', '[]']) {
    const res = await postNotice(body, signNotice(body));
    answers[body] = [res.status, await res.json()];
  }
  const fields = { PaymentId: ['PaymentId is required.'], ChangeType: ['ChangeType must be an integer.'] };
  const notObject = [400, { non_field_errors: ['A notice is one JSON object.'] }];
  t.deepEqual(answers, {
    '{"PaymentId": "", "ChangeType": "1"}': [400, fields],
    '{"PaymentId": 7, "ChangeType": 1.5}': [400, fields],
    '[]': notObject,
  });
  t.is(await PaymentNoticeModel.countDocuments({ changeType: 1.5 }), 0);
});

test('a notice for a payment not yet known is stored at once and left unapplied', async (t) => {
  const body = JSON.stringify({ PaymentId: 'a1a1a1a1-0000-0000-0000-000000000000', ChangeType: 1 });
  const res = await postNotice(body, signNotice(body));
  t.is(res.status, 200);
  const stored = await PaymentNoticeModel.findOne({ paymentId: 'a1a1a1a1-0000-0000-0000-000000000000' }).lean();
  t.is(stored?.raw, body);
  t.is(stored?.appliedAt, null);
});

test('a payment notice racing the reconciliation of its timed-out pix sale ends confirmed once', async (t) => {
  // 990408: the sandbox creates the charge, then never answers; our sale waits for reconciliation.
  const res = await callJson(
    env.app,
    'POST',
    PRE_CAPTURE,
    bearer(env.merchant.merchantToken),
    pixSale({ value: 990408 }),
  );
  t.is(res.status, 502);
  t.true(res.body.reconciling);
  const sale = await PaymentModel.findById(res.body.sale_id).lean();
  const atAcquirer = await getSaleByOrderId(sale!.merchantOrderId);
  t.is(atAcquirer?.status, 12);
  const paid = await payPix(env, atAcquirer!.paymentId);
  t.is(paid.body.notification.status, 200);
  const settled = await eventually(async () => {
    const read = await status(sale!._id);
    return read.body.data.sale_status === 'CONFIRMED' && !read.body.data.reconciling && read.body.data;
  }, 30_000);
  t.truthy(settled.paid_at);
  const notice = await eventually(async () => {
    const found = await PaymentNoticeModel.findOne({ paymentId: atAcquirer!.paymentId }).lean();
    return found?.appliedAt ? found : null;
  }, 30_000);
  t.truthy(notice!.result);
});

test('the system token reads any pix status; a merchant JWT is not accepted', async (t) => {
  const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), pixSale())).body.data;
  t.is((await status(sale.id, systemToken())).status, 200);
  t.is(
    (
      await callJson(
        env.app,
        'GET',
        `/api/v1/online/sales/${sale.id}/pix/status/`,
        bearer(systemToken(), {
          'x-merchant-id': String(env.merchant.merchantId),
        }),
        undefined,
      )
    ).status,
    200,
  );
  // The merchant's user is told which credentials the operation takes.
  const refused = await status(sale.id, env.merchant.accessToken);
  t.is(refused.status, 403);
  t.deepEqual(refused.body, {
    detail:
      'This credential is not accepted by this operation; it accepts an individual merchant token (mt_...), or the ' +
      'system token.',
  });
  const card = await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), {
    payment_method: 'card',
    value: 100,
    card_token: 'nope',
    payer: { name: 'x' },
  });
  t.is(card.status, 400);
});

test('an unpaid pix past its expiry reads expired', async (t) => {
  const sale = (
    await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), pixSale({ pix_expires_in: 60 }))
  ).body.data;
  await PaymentModel.updateOne({ _id: sale.id }, { $set: { 'pix.expiresAt': new Date(Date.now() - 1000) } });
  const read = await status(sale.id);
  t.is(read.body.data.sale_status, 'EXPIRED');
  t.false(read.body.data.paid);
  const sandboxSide = await sandboxPost(env, `/sandbox/notify/${sale.acquirer.payment_id}`, {
    notifyUrl: `${env.app.url}${PAYMENT_NOTIFICATION_PATH}`,
  });
  t.is(sandboxSide.body.notification.status, 200);
});

test.serial(
  'a paid pix whose notice never came is confirmed by the sweep after its expiry; an unpaid one is recorded expired',
  async (t) => {
    const paidSale = (
      await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), pixSale({ pix_expires_in: 60 }))
    ).body.data;
    const unpaidSale = (
      await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), pixSale({ pix_expires_in: 60 }))
    ).body.data;
    // The payer pays; the acquirer's notice is lost on the way.
    t.is((await sandboxPost(env, `/sandbox/pix/${paidSale.acquirer.payment_id}/pay`, { notify: false })).status, 200);
    t.is((await PaymentModel.findById(paidSale.id).lean())!.status, 'PENDING');

    // Before expiry plus the grace nothing is asked.
    const reconcileJobOf = (saleId: number, at: Date) =>
      getQueue(RECONCILE_QUEUE).getJob(`reconcile-${saleId}-sweep-${Math.floor(at.getTime() / 600_000)}`);
    const early = new Date();
    await sweepUnsettledSales(early);
    t.is(await reconcileJobOf(paidSale.id, early), undefined);

    // Three minutes after both expired (the sandbox expires the unpaid one on its side too).
    for (const id of [paidSale.id, unpaidSale.id])
      await PaymentModel.updateOne({ _id: id }, { $set: { 'pix.expiresAt': new Date(Date.now() - 1000) } });
    t.is((await sandboxPost(env, `/sandbox/pix/${unpaidSale.acquirer.payment_id}/expire`)).body.Status, 13);
    const later = new Date(Date.now() + 3 * 60_000);
    await sweepUnsettledSales(later);
    t.truthy(await reconcileJobOf(paidSale.id, later));
    const paid = await eventually(async () => {
      const sale = await PaymentModel.findById(paidSale.id).lean();
      return sale?.status === 'CONFIRMED' ? sale : null;
    });
    t.truthy(paid!.pix?.paidAt);
    const read = await status(paidSale.id);
    t.is(read.body.data.sale_status, 'CONFIRMED');
    t.true(read.body.data.paid);
    const unpaid = await eventually(async () => {
      const sale = await PaymentModel.findById(unpaidSale.id).lean();
      return sale?.status === 'EXPIRED' ? sale : null;
    });
    t.is(unpaid!.status, 'EXPIRED');

    // One that expired days ago, never settled, is no longer asked: it is left for an operator.
    const forgotten = (
      await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), pixSale({ pix_expires_in: 60 }))
    ).body.data;
    await PaymentModel.updateOne(
      { _id: forgotten.id },
      { $set: { 'pix.expiresAt': new Date(Date.now() - 3 * 24 * 3600_000) } },
    );
    const now = new Date();
    await sweepUnsettledSales(now);
    t.is(await reconcileJobOf(forgotten.id, now), undefined);
  },
);

test.serial('a stored payment notice whose job was lost is queued again by the sweep and applied once', async (t) => {
  const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), pixSale())).body.data;
  t.is((await sandboxPost(env, `/sandbox/pix/${sale.acquirer.payment_id}/pay`, { notify: false })).status, 200);
  // The notice was stored, but its job is gone (as if Redis had lost its data).
  const raw = JSON.stringify({ PaymentId: sale.acquirer.payment_id, ChangeType: 1 });
  const noticeId = crypto.createHash('sha256').update(raw).digest('hex');
  await PaymentNoticeModel.create({
    _id: noticeId,
    raw,
    paymentId: sale.acquirer.payment_id,
    changeType: 1,
    receivedAt: new Date(),
  });
  t.is((await PaymentNoticeModel.findById(noticeId).lean())!.jobId, undefined, 'no job was ever queued for it');

  t.is(await requeueUnappliedPaymentNotices(new Date()), 0, 'a fresh notice is left to its own job');
  t.is(await requeueUnappliedPaymentNotices(new Date(Date.now() + 6 * 60_000)), 1);
  const confirmed = await eventually(async () => {
    const read = await status(sale.id);
    return read.body.data.sale_status === 'CONFIRMED' && read.body.data;
  });
  t.true(confirmed.paid);
  const notice = await eventually(
    async () =>
      (await PaymentNoticeModel.findById(noticeId).lean())?.appliedAt && PaymentNoticeModel.findById(noticeId).lean(),
  );
  t.regex(notice!.result ?? '', /PENDING -> CONFIRMED/);
  t.is(
    await requeueUnappliedPaymentNotices(new Date(Date.now() + 6 * 60_000)),
    0,
    'an applied notice is not queued again',
  );
});

test.serial(
  'a notice whose content-derived job id Redis still holds as finished is applied all the same',
  async (t) => {
    const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), pixSale())).body
      .data;
    t.is((await sandboxPost(env, `/sandbox/pix/${sale.acquirer.payment_id}/pay`, { notify: false })).status, 200);
    const body = JSON.stringify({ PaymentId: sale.acquirer.payment_id, ChangeType: 1 });
    const noticeId = crypto.createHash('sha256').update(body).digest('hex');
    // Redis still holds a completed job under the id the content alone would give (an earlier run, or
    // another database on the same Redis): BullMQ ignores an add under it, so the notice must get its own.
    const finished = await getQueue(NOTICE_QUEUE).add(
      'apply-payment-notice',
      { noticeId: 'not-a-notice' },
      { jobId: `notice-${noticeId}` },
    );
    await eventually(async () => (await finished.getState()) === 'completed');

    t.is((await postNotice(body, signNotice(body))).status, 200);
    const notice = await eventually(
      async () =>
        (await PaymentNoticeModel.findById(noticeId).lean())?.appliedAt && PaymentNoticeModel.findById(noticeId).lean(),
    );
    t.regex(notice!.result ?? '', /PENDING -> CONFIRMED/);
    t.not(notice!.jobId, finished.id);

    // A record whose own job finished without applying it (or failed for good) is queued again by the sweep.
    await PaymentNoticeModel.updateOne(
      { _id: noticeId },
      { $set: { appliedAt: null, applied: false, result: null, jobId: finished.id } },
    );
    t.is(await requeueUnappliedPaymentNotices(new Date(Date.now() + 6 * 60_000)), 1);
    const again = await eventually(
      async () =>
        (await PaymentNoticeModel.findById(noticeId).lean())?.appliedAt && PaymentNoticeModel.findById(noticeId).lean(),
    );
    t.not(again!.jobId, finished.id);
  },
);
