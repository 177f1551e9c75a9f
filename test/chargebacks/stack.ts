/**
 * What a chargeback test needs: the acquirer sandbox as a real process, and our app in this
 * process pointed at it. Our server listens before the config is loaded so the sandbox can be
 * told where to send notifications (config loads once per process).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/web/app';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { closeQueues, startWorker } from '../../src/queue/queues';
import { waitForRedis } from '../../src/platform/redis';
import { eventually, freePort, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { callJson } from '../helpers/http';
import { noticeFingerprint } from '../../src/chargebacks';
import { CHARGEBACK_NOTICE_QUEUE } from '../../jobs/chargeback-notice';
import { pointAtSandbox } from '../helpers/acquirer';
import { ChargebackNoticeModel } from '../../src/chargebacks/model';
import processChargebackNotice from '../../jobs/processors/chargeback-notice';

export interface ChargebackStack {
  url: string;
  sandbox: RunningProcess;
  /** Calls a sandbox test control (/sandbox-cb/_test/...). */
  control(path: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

export async function listenOnFreePort(server: http.Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nothing listens on (taken, then released). */
export const closedPort = freePort;

export async function startChargebackStack(
  options: { env?: Record<string, string>; noticeWorker?: boolean } = {},
): Promise<ChargebackStack> {
  const server = http.createServer();
  const url = await listenOnFreePort(server);
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0', SANDBOX_NOTIFY_URL: url });
  Object.assign(process.env, pointAtSandbox(sandbox.url), options.env ?? {});
  await connectDatabase(process.env.MONGODB_URI!);
  await waitForRedis();
  server.on('request', buildApp());
  if (options.noticeWorker) startWorker(CHARGEBACK_NOTICE_QUEUE, processChargebackNotice);
  return {
    url,
    sandbox,
    async control(path, body) {
      return (await callJson(sandbox, body === undefined ? 'GET' : 'POST', `/sandbox-cb/_test${path}`, {}, body)).body;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopAll();
      await closeQueues();
      await disconnectDatabase();
    },
  };
}

/** A notice the sandbox sends to our intake (its own case, so the acquirer knows it), once applied. */
export async function sandboxNotify(stack: ChargebackStack, body: Record<string, unknown>) {
  const answer = await stack.control('/notify', body);
  if (answer.delivered?.status !== 202) throw new Error(`notice not delivered: ${JSON.stringify(answer)}`);
  await eventually(
    async () => (await ChargebackNoticeModel.findById(noticeFingerprint(answer.notice)).lean())?.appliedAt,
  );
  return answer.notice;
}

/** The sandbox acquirer decides lifecycle step `message` of case `caseId` at `ec` (its lifecycle then shows it). */
export function decideStep(stack: ChargebackStack, ec: string, caseId: number, message: string, date: string) {
  return stack.control('/lifecycle-step', { establishmentNumber: ec, caseId, message, date });
}

/** The sandbox acquirer registers a new chargeback as this consult item (its consult shows it), not notifying us. */
export function announceChargeback(stack: ChargebackStack, item: Record<string, unknown>) {
  return stack.control('/chargeback', item);
}
