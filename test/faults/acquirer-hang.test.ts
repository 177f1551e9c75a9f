import '../helpers/env';
import test from 'ava';
import net from 'node:net';
import { getConfig } from '../../config';
import { getQueue } from '../../src/queue/queues';
import { RECONCILE_QUEUE } from '../../jobs/reconcile-sale';
import { HEARTBEAT_QUEUE } from '../../jobs/heartbeat';
import { HeartbeatModel } from '../../src/health/heartbeat';
import { cardSaleBody, encryptedTestCard } from '../helpers/cards';
import { eventually, startProcess, type RunningProcess } from '../helpers/processes';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { json } from '../helpers/app';
import { useServices } from '../helpers/services';
import { send } from '../helpers/http';

/**
 * A hostile acquirer at the TCP level: `hang` accepts the connection and never answers, `reset`
 * answers the first bytes of a request with a TCP reset.
 */
class BrokenAcquirer {
  mode: 'hang' | 'reset' = 'hang';
  private readonly sockets = new Set<net.Socket>();
  readonly server = net.createServer((socket) => {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', () => {
      if (this.mode === 'reset') socket.resetAndDestroy();
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  /** Connections held open right now (a hung call that was never given up would stay here). */
  get openConnections(): number {
    return this.sockets.size;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const TIMEOUT_MS = 1500;
const acquirer = new BrokenAcquirer();
let web: RunningProcess;
let worker: RunningProcess;
let merchant: TestMerchant;

const acquirerEnv: Record<string, string> = {};
useServices({
  setUp: async () => {
    const url = await acquirer.listen();
    Object.assign(acquirerEnv, {
      ACQUIRER_BASE_URL: url,
      ACQUIRER_QUERY_URL: url,
      ACQUIRER_TIMEOUT_MS: String(TIMEOUT_MS),
      ACQUIRER_CONNECT_TIMEOUT_MS: '1000',
    });
    Object.assign(process.env, acquirerEnv);
  },
  ready: async () => {
    [web, worker] = await Promise.all([
      startProcess('web', acquirerEnv),
      startProcess('worker', { ...acquirerEnv, WORKER_LOCK_DURATION_MS: '5000' }),
    ]);
    merchant = await newMerchant();
  },
  cleanUp: async () => {
    for (const queue of [RECONCILE_QUEUE, HEARTBEAT_QUEUE])
      await getQueue(queue)
        .obliterate({ force: true })
        .catch(() => undefined);
  },
  tearDown: async () => {
    await acquirer.close();
  },
});

function cardSale(value: number) {
  return cardSaleBody(encryptedTestCard(), { value });
}

async function preCapture(value: number) {
  const started = Date.now();
  const res = await send(
    web,
    'POST',
    '/api/v1/online/sales/pre-capture/',
    bearer(merchant.merchantToken),
    cardSale(value),
  );
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    body: await json(res),
    ms: Date.now() - started,
  };
}

// Generous on purpose (the machine is shared): what matters is that the answer is bounded by the
// configured timeout rather than by the acquirer, which here never answers at all.
const BOUND_MS = TIMEOUT_MS + 10_000;

test.serial(
  'a hanging acquirer: 502 json within the configured timeout, and no worker stays stuck on it',
  async (t) => {
    acquirer.mode = 'hang';
    const answers = await Promise.all([1001, 1002, 1003, 1004, 1005, 1006].map((value) => preCapture(value)));
    for (const answer of answers) {
      t.is(answer.status, 502);
      t.regex(answer.contentType, /application\/json/);
      t.truthy(answer.body.detail);
      t.true(answer.ms < BOUND_MS, `answered after ${answer.ms} ms`);
    }
    // More reconciliations than the worker runs at once: each asks the hanging acquirer, gives up at
    // the timeout and is retried later, so the worker keeps taking other work.
    const reconcile = getQueue(RECONCILE_QUEUE);
    await eventually(
      async () => {
        const jobs = await reconcile.getJobs(['active', 'waiting', 'delayed', 'failed', 'completed']);
        return jobs.length >= answers.length && jobs.every((job) => job.attemptsMade >= 1);
      },
      60_000,
      250,
    );
    await getQueue(HEARTBEAT_QUEUE).add('heartbeat', { enqueuedAt: new Date().toISOString() }, { jobId: 'after-hang' });
    await eventually(async () => (await HeartbeatModel.countDocuments({ _id: 'after-hang' })) === 1, 30_000, 250);
    t.is(web.child.exitCode, null);
    t.is(worker.child.exitCode, null);
  },
);

test.serial('a resetting acquirer: 502 json at once', async (t) => {
  acquirer.mode = 'reset';
  const answer = await preCapture(2001);
  t.is(answer.status, 502);
  t.regex(answer.contentType, /application\/json/);
  t.truthy(answer.body.detail);
  t.true(answer.ms < BOUND_MS, `answered after ${answer.ms} ms`);
});

test.serial('acquirer failures show in the web process metrics', async (t) => {
  const { user, password } = getConfig().dashboard;
  const res = await send(web, 'GET', '/metrics', {
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  });
  const text = await res.text();
  const unavailable = /^acquirer_errors_total\{operation="createCardSale",kind="unavailable"\} (\d+)$/m.exec(text);
  t.true(
    Number(unavailable?.[1]) >= 7,
    text
      .split('\n')
      .filter((l) => l.startsWith('acquirer'))
      .join('\n'),
  );
  t.regex(
    text,
    /^http_requests_total\{method="POST",route="\/api\/v1\/online\/sales\/pre-capture\/",status="502"\} \d+$/m,
  );
});
