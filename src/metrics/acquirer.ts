/** Acquirer call latency and errors, fed by the acquirer client's 'call' events (no card data in them). */
import { acquirerEvents, type AcquirerCallEvent } from '../acquirer/client';
import { acquirerCallDuration, acquirerCallErrors } from '../platform/metrics-registry';

let subscribed = false;

/** Idempotent: every process that serves metrics calls it once it loads its metrics endpoint. */
export function recordAcquirerCalls(): void {
  if (subscribed) return;
  subscribed = true;
  acquirerEvents.on('call', (event: AcquirerCallEvent) => {
    acquirerCallDuration.observe({ operation: event.operation, outcome: event.outcome }, event.durationMs / 1000);
    if (event.outcome !== 'ok') acquirerCallErrors.inc({ operation: event.operation, kind: event.outcome });
  });
}
