/**
 * The chargeback notice intake (POST, shared-secret header, one new-chargeback notice each)
 * against a bare route doing the floor of "store durably, then queue": one insert and one BullMQ
 * add. Every notice is unique; afterwards the case checks that none was lost (every 202 stored,
 * every stored notice applied by the worker) and times BullMQ no-op jobs of the same count. Its
 * database commands per notice are those of the intake (web) and of the apply job (worker). The
 * rounds measure the intake while the worker applies notices on the same cores, as one machine
 * runs them; the note adds the intake alone (as many more rounds with the notice queue paused,
 * each beside a load of the baseline).
 */
import crypto from 'node:crypto';
import mongoose from 'mongoose';
import { getConfig } from '../../../config';
import { CHARGEBACK_NOTICE_PATH, CHARGEBACK_NOTICE_SECRET_HEADER } from '../../../src/acquirer/chargebacks';
import { ChargebackNoticeModel } from '../../../src/chargebacks/model';
import { CHARGEBACK_NOTICE_QUEUE } from '../../../jobs/chargeback-notice';
import { completedJobs } from '../db-commands';
import { getQueue } from '../../../src/queue/queues';
import { noopJobsPerSecond } from '../noop-jobs';
import { load } from '../load';
import type { BenchTarget, HttpCase } from './types';

const ESTABLISHMENT = 4_000_000_000 + crypto.randomInt(0, 99_999_999);
let sequence = crypto.randomInt(1_000_000, 9_000_000);
let sent = 0;
let completedBefore = 0;
/** Notices answered 202 so far, the probe and the warm-up included (each completes one job). */
let accepted = 1;
const drainSeconds: number[] = [];
const CHARGEBACK_ID_OFFSET = 10_000_000;
let intake: BenchTarget | undefined;
let bare: BenchTarget | undefined;

function notice() {
  sequence += 1;
  return JSON.stringify({
    idCase: sequence,
    idChargeback: sequence + CHARGEBACK_ID_OFFSET,
    establishmentNumber: ESTABLISHMENT,
    process: 'PRIMEIRO_CHARGEBACK',
    treatmentDeadline: '2030-01-20',
    transactionAmount: 150.9,
    chargebackDetails: {
      reasonCode: '4837',
      reasonDescription: 'Transação não reconhecida',
      receptionDate: '2030-01-05',
    },
  });
}

export const chargebacksCase: HttpCase = {
  name: 'chargebacks',
  route: `POST ${CHARGEBACK_NOTICE_PATH}`,
  // The worker confirms each new chargeback with the acquirer's consult (issue 27): the sandbox answers it.
  needs: ['sandbox', 'worker'],
  baseline: 'bare Express: one insertOne + one BullMQ add per notice (the floor of store-then-queue)',
  mountBaseline(router) {
    router.post('/notices', async (req, res) => {
      const _id = crypto.randomUUID();
      await mongoose.connection
        .collection('bench_baseline_notices')
        .insertOne({ _id: _id as never, raw: JSON.stringify(req.body), receivedAt: new Date() });
      await getQueue('bench-baseline-notices').add('apply', { _id }, { jobId: _id });
      res.status(202).json({ received: true });
    });
  },
  async prepare(context) {
    // Before the probe: every notice of this case (the probe included) completes one job after this.
    completedBefore = await completedJobs(context.metered(), CHARGEBACK_NOTICE_QUEUE);
    // Every notice of the case is one the acquirer shows: its consult answers any case of this establishment.
    const echo = await fetch(`${context.sandboxUrl}/sandbox-cb/_test/echo-establishment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ establishmentNumber: ESTABLISHMENT, idChargebackOffset: CHARGEBACK_ID_OFFSET }),
    });
    if (!echo.ok) throw new Error(`chargebacks: the sandbox did not take the echo establishment (${echo.status})`);
    const headers = {
      'content-type': 'application/json',
      [CHARGEBACK_NOTICE_SECRET_HEADER]: getConfig().acquirer.chargeback.notificationSecret,
    };
    intake = {
      method: 'POST',
      path: CHARGEBACK_NOTICE_PATH,
      headers,
      body: notice(),
      setupRequest: (request) => {
        sent += 1;
        return { ...request, body: notice() };
      },
      expectStatus: 202,
    };
    bare = {
      on: 'baseline',
      method: 'POST',
      path: '/baseline/chargebacks/notices',
      headers: { 'content-type': 'application/json' },
      body: notice(),
      expectStatus: 202,
    };
    return { subject: intake, baseline: bare };
  },
  async drained(context, side) {
    // Every notice of the round applied: as many completed jobs as notices acknowledged, and no more
    // coming (a request cut off by the end of the load may still have been stored and queued).
    accepted += side.statusCodes['202'] ?? 0;
    const started = performance.now();
    let last = -1;
    for (;;) {
      const completed = (await completedJobs(context.metered(), CHARGEBACK_NOTICE_QUEUE)) - completedBefore;
      if (completed >= accepted && completed === last) break;
      if (performance.now() - started > 300_000)
        throw new Error(`chargebacks: ${completed} notices applied of ${accepted} acknowledged after 300 s`);
      last = completed;
      await new Promise((r) => setTimeout(r, 500));
    }
    drainSeconds.push(Math.round((performance.now() - started) / 100) / 10);
  },
  async verify(context) {
    // The intake alone: rounds like the case's own, each a load with the notice queue paused, so no
    // notice is applied beside it (as when the worker runs on other cores than the web process),
    // then resumed and drained, beside a load of the baseline, the order alternating.
    const queue = getQueue(CHARGEBACK_NOTICE_QUEUE);
    const alone = async () => {
      await queue.pause();
      const side = await load(context.webUrl, intake!, context.seconds).finally(() => queue.resume());
      await chargebacksCase.drained!(context, side);
      if (!side.valid) throw new Error(`chargebacks: the intake alone answered ${JSON.stringify(side.statusCodes)}`);
      return side.requestsPerSecond;
    };
    const baselineRate = async () => (await load(context.baselineUrl, bare!, context.seconds)).requestsPerSecond;
    const rates = { alone: [] as number[], baseline: [] as number[] };
    for (let round = 0; round < context.rounds; round++) {
      if (round % 2) rates.baseline.push(await baselineRate());
      rates.alone.push(await alone());
      if (!(round % 2)) rates.baseline.push(await baselineRate());
    }
    const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
    const ratioOf = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    const aloneRatio = ratioOf(mean(rates.alone), mean(rates.baseline));
    const aloneRounds = rates.alone.map((rate, i) => ratioOf(rate, rates.baseline[i]));
    const ours = { raw: new RegExp(`"establishmentNumber":${ESTABLISHMENT}[,}]`) };
    // A regex on raw is a scan of the whole collection: counted once the worker is done, never polled
    // while it works (a poll would load the store the worker is measured on). Progress: the workers'
    // completed jobs, from their /metrics. Requests cut off at the end of the load have landed by now.
    const started = performance.now();
    const stored = await ChargebackNoticeModel.countDocuments(ours);
    while (
      performance.now() - started < 300_000 &&
      (await completedJobs(context.metered(), CHARGEBACK_NOTICE_QUEUE)) - completedBefore < stored
    ) {
      await new Promise((r) => setTimeout(r, 250));
    }
    const applied = await ChargebackNoticeModel.countDocuments({ ...ours, appliedAt: mongoose.trusted({ $ne: null }) });
    if (stored < accepted) throw new Error(`chargebacks: ${accepted} notices acknowledged but only ${stored} stored`);
    if (applied !== stored)
      throw new Error(`chargebacks: ${stored} notices stored but only ${applied} applied after 300 s`);
    const noop = await noopJobsPerSecond(
      stored,
      Number(process.env.WORKER_CONCURRENCY || getConfig().worker.concurrency),
    );
    return {
      note:
        `intake alone (notice queue paused, ${context.rounds} more rounds of ${context.seconds} s beside the ` +
        `baseline): ${Math.round(mean(rates.alone) * 10) / 10}/s, ${aloneRatio} of the baseline (rounds ` +
        `${aloneRounds.join(', ')}); ` +
        `${accepted} acknowledged (of ${sent + 1} sent), ${stored} stored, ${applied} applied (zero lost; the ` +
        `worker applied while the load ran, and the rest of the warm-up's and of each round's in ` +
        `${drainSeconds.join(', ')} s after it); BullMQ no-op jobs, same count and concurrency: ` +
        `${noop.requestsPerSecond}/s`,
    };
  },
};
