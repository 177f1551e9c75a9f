/**
 * Subscription charges: N due subscriptions (BENCH_CHARGES, default 200; the issue's figure is
 * 100,000, which FerretDB cannot charge in any useful time: see the lookups case and the README) are enqueued by the scheduler's own code
 * (enqueueDueSubscriptionCharges: a cursor streamed into addBulk chunks) and then charged against
 * the sandbox by one worker process, beside BullMQ no-op jobs of the same count. The note gives
 * the time to schedule, the peak memory growth of the process that scheduled, and the time to
 * charge them all.
 */
import { getConfig } from '../../../config';
import { enqueueDueSubscriptionCharges } from '../../../src/subscriptions/scheduling';
import { ChargeStatus, SubscriptionChargeModel } from '../../../src/subscriptions/model';
import { dayOf } from '../../../src/subscriptions/clock';
import { newMerchant } from '../../helpers/identity';
import { insertDueSubscriptions, sandboxCardToken } from '../../helpers/due-subscriptions';
import { noopJobsPerSecond } from '../noop-jobs';
import type { ThroughputCase } from './types';

const CHARGES = Number(process.env.BENCH_CHARGES || 200);
/** How long charging may run before the case stops and reports what it reached. */
const CHARGE_SECONDS = Number(process.env.BENCH_CHARGE_SECONDS || 900);


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
    await insertDueSubscriptions(merchant.merchantId, Array.from({ length: CHARGES }, (_, i) => base + i), token, today);

    await context.setWorkers(0);
    // Memory of the scheduling code: peak heap in use, and what stays in use after a full GC every
    // 250 ms (npm run bench passes --expose-gc; the GCs slow scheduling a little). Flat means the second figure does not grow with N;
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
    const scheduleStarted = performance.now();
    const enqueued = await enqueueDueSubscriptionCharges(new Date());
    const scheduleSeconds = (performance.now() - scheduleStarted) / 1000;
    clearInterval(sampler);
    clearInterval(retainedSampler);
    const mb = (bytes: number) => Math.max(0, Math.round(bytes / 2 ** 20));
    const memory = `scheduling heap +${mb(peakHeap - heapBefore)} MB at peak, ${collect && retainedSamples ? `at most +${mb(maxRetained)} MB kept after GC (${retainedSamples} samples)` : 'kept after GC not measured (no --expose-gc, or done within 250 ms)'}`;

    await context.setWorkers(1);
    const chargeStarted = performance.now();
    const confirmed = () => SubscriptionChargeModel.countDocuments({ merchantId: merchant.merchantId, status: ChargeStatus.CONFIRMED });
    let done = 0;
    while (performance.now() - chargeStarted < CHARGE_SECONDS * 1000) {
      done = await confirmed();
      if (done >= CHARGES) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const chargeSeconds = (performance.now() - chargeStarted) / 1000;
    const baseline = await noopJobsPerSecond(CHARGES, getConfig().worker.concurrency);
    return {
      subject: {
        requestsPerSecond: Math.round((done / chargeSeconds) * 10) / 10,
        requests: done,
        statusCodes: {},
        errors: CHARGES - done,
        valid: done === CHARGES && enqueued === CHARGES,
      },
      baseline,
      note: `scheduled ${enqueued} in ${scheduleSeconds.toFixed(2)} s (${Math.round(enqueued / scheduleSeconds)}/s; ${memory}); ${done === CHARGES ? `charged ${done} in ${chargeSeconds.toFixed(1)} s` : `charged ${done} of ${CHARGES} in ${chargeSeconds.toFixed(1)} s, then stopped (BENCH_CHARGE_SECONDS)`}`,
    };
  },
};
