/**
 * The intake of the acquirer's payment notices and their jobs: the same body again while its first job
 * runs gets a job of its own. A PIX refund's completion is notified with the payment's body, byte for
 * byte, and may arrive while the payment's notice is being applied (a refund asked right after the
 * sale read CONFIRMED): folded into that running job, it was read by no one, and the refund waited for
 * its 30 s recheck. No notice worker runs here: the test takes the job itself, as a worker does.
 */
import '../helpers/env';
import crypto from 'node:crypto';
import test from 'ava';
import { Worker } from 'bullmq';
import { getConfig } from '../../config';
import { NOTIFICATION_SIGNATURE_HEADER, PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';
import { signNotice } from '../../src/sales';
import { PaymentNoticeModel } from '../../src/payments/model';
import { sha256Hex } from '../../src/platform/digests';
import { createWorkerConnection } from '../../src/platform/redis';
import { NOTICE_QUEUE, paymentNoticeQueue } from '../../jobs/apply-payment-notice';
import { send } from '../helpers/http';
import { startTestApp, type TestApp } from '../helpers/app';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(() => app?.close());

const postNotice = (body: string) =>
  send(
    app,
    'POST',
    PAYMENT_NOTIFICATION_PATH,
    { 'content-type': 'application/json', [NOTIFICATION_SIGNATURE_HEADER]: signNotice(body) },
    body,
  );

/** The ids of the jobs queued for one notice, in every state Redis keeps. */
async function jobsOf(noticeId: string): Promise<string[]> {
  const jobs = await paymentNoticeQueue().getJobs(['waiting', 'active', 'delayed', 'completed', 'failed']);
  return jobs.filter((job) => job?.data.noticeId === noticeId).map((job) => job.id!);
}

test.serial('the same notice while its job waits is not queued twice; while its job runs, it is', async (t) => {
  const body = JSON.stringify({ PaymentId: crypto.randomUUID(), ChangeType: 1 });
  const noticeId = sha256Hex(body);
  t.is((await postNotice(body)).status, 200);
  const [first] = await jobsOf(noticeId);
  t.truthy(first);
  // Waiting: the job will ask the acquirer after this second notice, so it is the one job.
  t.is((await postNotice(body)).status, 200);
  t.deepEqual(await jobsOf(noticeId), [first]);

  // A worker takes the job (it is active, its read of the acquirer may be done): the same body gets its own job.
  const taker = new Worker(NOTICE_QUEUE, null, {
    connection: createWorkerConnection('notice-intake-test'),
    prefix: getConfig().queuePrefix,
  });
  t.teardown(() => taker.close());
  const token = crypto.randomUUID();
  const taken = await taker.getNextJob(token);
  t.is(taken?.id, first);
  t.is((await postNotice(body)).status, 200);
  const jobs = await jobsOf(noticeId);
  t.is(jobs.length, 2);
  const second = jobs.find((id) => id !== first)!;
  t.is(await paymentNoticeQueue().getJobState(second), 'waiting');
  // The record names the newer job: the notice sweep queues it again only if that one will not run.
  t.is((await PaymentNoticeModel.findById(noticeId).lean())!.jobId, second);

  // Applied, the same body again is queued anew: only a new job reads the acquirer after it.
  await PaymentNoticeModel.updateOne({ _id: noticeId }, { $set: { appliedAt: new Date() } });
  t.is((await postNotice(body)).status, 200);
  t.is((await jobsOf(noticeId)).length, 3);
});
