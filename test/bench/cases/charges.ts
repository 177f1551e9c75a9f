/**
 * Subscription charges: N due subscriptions (BENCH_CHARGES, default 2,000; the issue's run is
 * BENCH_CHARGES=100000) are enqueued by the scheduler's own code (enqueueDueSubscriptionCharges:
 * a cursor streamed into addBulk chunks) and then charged against the sandbox by one worker
 * process, beside BullMQ no-op jobs of the same count. The note gives the time to seed, to
 * schedule (and the scheduling code's heap), to charge them all, and the rate of the first and the
 * last 10% of charges (from the charges' own confirmation times): flat per-charge cost means a
 * ratio last/first near 1. Database commands per charge: scheduling (this process) plus charging
 * (the worker), progress read from the worker's /metrics so no polling query loads the store.
 */
import { getConfig } from '../../../config';
import { enqueueDueSubscriptionCharges } from '../../../src/subscriptions/scheduling';
import { CHARGE_QUEUE } from '../../../jobs/charge-subscription';
import { ChargeStatus, SubscriptionChargeModel } from '../../../src/subscriptions/model';
import { dayOf } from '../../../src/subscriptions/clock';
import { newMerchant } from '../../helpers/identity';
import { insertDueSubscriptions, sandboxCardToken } from '../../helpers/due-subscriptions';
import { addFigures, commandsSince, completedJobs, snapshot } from '../db-commands';
import { noopJobsPerSecond } from '../noop-jobs';
import type { ThroughputCase } from './types';

const CHARGES = Number(process.env.BENCH_CHARGES || 2000);
/**
 * How long charging may run before the case stops and reports what it reached (default: 900 s, or 0.1 s a charge when
 * more).
 */
const CHARGE_SECONDS = Number(process.env.BENCH_CHARGE_SECONDS || Math.max(900, CHARGES * 0.1));

const SEED_STREAMS = 4;

/** Charges per second over the first and the last tenth of the confirmation times (sorted). */
function firstAndLastTenth(times: number[]): { first: number; last: number } {
  const tenth = Math.max(2, Math.ceil(times.length / 10));
  const rate = (from: number, to: number) => (tenth - 1) / Math.max((to - from) / 1000, 0.001);
  return { first: rate(times[0], times[tenth - 1]), last: rate(times[times.length - tenth], times[times.length - 1]) };
}

export const chargesCase: ThroughputCase = {
  name: 'charges',
  route: `${CHARGES} due subscription charges, 1 worker process`,
  needs: ['sandbox', 'worker'],
  baseline: 'BullMQ no-op jobs, same count, one Worker at WORKER_CONCURRENCY',
  async measure(context) {
    if (!context.sandboxUrl) throw new Error('charges case needs the sandbox');
    const token = await sandboxCardToken(context.sandboxUrl);
    const merchant = await newMerchant();
    const today = dayOf(new Date());
    const base = 800_000_000 + Math.floor(Math.random() * 100_000) * 1000;
    const seedStarted = performance.now();
    // insertMany of 1,000 a command, SEED_STREAMS streams at once (the store has cores to spare while one waits).
    const ids = Array.from({ length: CHARGES }, (_, i) => base + i);
    const slice = Math.ceil(CHARGES / SEED_STREAMS / 1000) * 1000;
    await Promise.all(
      Array.from({ length: SEED_STREAMS }, (_, k) =>
        insertDueSubscriptions(merchant.merchantId, ids.slice(k * slice, (k + 1) * slice), token, today),
      ),
    );
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    await context.setWorkers(0);
    // Memory of the scheduling code: peak heap in use, and what stays in use after a full GC every
    // 250 ms (npm run bench passes --expose-gc; the GCs slow scheduling a little). Flat means the second figure does
    // not grow with N;
    // RSS is not the measure, V8 grows it under allocation churn and keeps it.
    const collect = (globalThis as { gc?: () => void }).gc;
    collect?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let peakHeap = heapBefore;
    let maxRetained = 0;
    let retainedSamples = 0;
    const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 20);
    const retainedSampler = collect
      ? setInterval(() => {
          collect();
          maxRetained = Math.max(maxRetained, process.memoryUsage().heapUsed - heapBefore);
          retainedSamples++;
        }, 250)
      : undefined;
    const bench = [{ name: 'scheduler (bench process)' }];
    const beforeScheduling = await snapshot(bench);
    const scheduleStarted = performance.now();
    const enqueued = await enqueueDueSubscriptionCharges(new Date());
    const scheduleSeconds = (performance.now() - scheduleStarted) / 1000;
    const schedulingCommands = await commandsSince(beforeScheduling, bench, enqueued);
    clearInterval(sampler);
    clearInterval(retainedSampler);
    const mb = (bytes: number) => Math.max(0, Math.round(bytes / 2 ** 20));
    const retained =
      collect && retainedSamples
        ? `at most +${mb(maxRetained)} MB kept after GC (${retainedSamples} samples)`
        : 'kept after GC not measured (no --expose-gc, or done within 250 ms)';
    const memory = `scheduling heap +${mb(peakHeap - heapBefore)} MB at peak, ${retained}`;

    const beforeCharging = await snapshot(context.metered());
    await context.setWorkers(1);
    const chargeStarted = performance.now();
    let jobsDone = 0;
    while (performance.now() - chargeStarted < CHARGE_SECONDS * 1000) {
      jobsDone = await completedJobs(context.metered(), CHARGE_QUEUE);
      if (jobsDone >= CHARGES) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const chargeSeconds = (performance.now() - chargeStarted) / 1000;
    const chargingCommands = await commandsSince(beforeCharging, context.metered(), CHARGES);
    const confirmedAt = (
      await SubscriptionChargeModel.find(
        { merchantId: merchant.merchantId, status: ChargeStatus.CONFIRMED },
        { updatedAt: 1 },
      ).lean()
    )
      .map((c) => c.updatedAt.getTime())
      .sort((a, b) => a - b);
    const done = confirmedAt.length;
    const tenths = done >= 20 ? firstAndLastTenth(confirmedAt) : undefined;
    const baseline = await noopJobsPerSecond(CHARGES, getConfig().worker.concurrency);
    const round = (n: number) => Math.round(n * 10) / 10;
    const tenthsNote = tenths
      ? `first 10% ${round(tenths.first)}/s, last 10% ${round(tenths.last)}/s ` +
        `(last/first ${(tenths.last / tenths.first).toFixed(2)})`
      : 'too few charges for first/last 10% rates';
    const charged =
      done === CHARGES
        ? `charged ${done} in ${chargeSeconds.toFixed(1)} s`
        : `charged ${done} of ${CHARGES} in ${chargeSeconds.toFixed(1)} s, then stopped (BENCH_CHARGE_SECONDS)`;
    return {
      subject: {
        requestsPerSecond: round(done / chargeSeconds),
        requests: done,
        statusCodes: {},
        errors: CHARGES - done,
        valid: done === CHARGES && enqueued === CHARGES,
      },
      baseline,
      dbCommands: addFigures([schedulingCommands, chargingCommands], CHARGES),
      note:
        `seeded ${CHARGES} due subscriptions in ${seedSeconds.toFixed(1)} s; scheduled ${enqueued} in ` +
        `${scheduleSeconds.toFixed(2)} s (${Math.round(enqueued / scheduleSeconds)}/s, ` +
        `${schedulingCommands.perOperation} db cmds each; ${memory}); ` +
        `${charged} ` +
        (`(${chargingCommands.perOperation} db cmds each); ${tenthsNote}; total, scheduling and charging: ` +
          `${(scheduleSeconds + chargeSeconds).toFixed(1)} s`),
    };
  },
};
