import '../helpers/env';
import test from 'ava';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { startJaeger, stopService, type StartedJaeger } from '../../src/devstack/services';
import { tracingWanted } from '../../src/platform/tracing';
import { eventually, freePort, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { encryptedTestCard } from '../helpers/cards';
import { cardSale, PRE_CAPTURE } from '../sales/helpers';
import { APPROVED_CARD, readyLink } from '../payment-links/helpers';
import { createSubscription } from '../subscriptions/support';
import { Receiver } from '../webhooks/receiver';
import { dayOf } from '../../src/subscriptions/clock';
import { ACCOUNT_EVENT_QUEUE } from '../../jobs/account-event';
import { LINK_WEBHOOK_QUEUE } from '../../jobs/link-webhook';
import { CHARGE_QUEUE } from '../../jobs/charge-subscription';

// A real trace store (Jaeger v2, memory storage, built once per machine from its Go module) on free ports; the
// sandbox, web and worker as processes exporting to it over OTLP, as an operator would turn traces on.
let jaeger: StartedJaeger;
let web: RunningProcess;
let worker: RunningProcess;
let merchant: TestMerchant;
const receiver = new Receiver();

test.before(async () => {
  await connectDatabase(process.env.MONGODB_URI!);
  await receiver.start();
  const [otlpHttp, query, queryGrpc] = [await freePort(), await freePort(), await freePort()];
  jaeger = await startJaeger({ otlpHttp, query, queryGrpc }, false);
  // Spans are sent every 100 ms instead of every 5 s, so the test reads them soon.
  const traces = { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpUrl, OTEL_BSP_SCHEDULE_DELAY: '100' };
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0', ...traces });
  const env = {
    ...traces,
    ACQUIRER_BASE_URL: sandbox.url,
    ACQUIRER_QUERY_URL: sandbox.url,
    ACQUIRER_TIMEOUT_MS: '5000',
    WEBHOOK_TEST_ALLOW_HOSTS: receiver.host,
  };
  [web, worker] = await Promise.all([startProcess('web', env), startProcess('worker', env)]);
  merchant = await newMerchant();
});
test.after.always(async () => {
  await stopAll();
  receiver.close();
  if (jaeger) await stopService(jaeger);
  await disconnectDatabase();
});

interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  processID: string;
  tags: { key: string; value: unknown }[];
}
interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

async function tracesOf(service: string): Promise<JaegerTrace[]> {
  const res = await fetch(`${jaeger.queryUrl}/api/traces?service=${service}&limit=1000&lookback=1h`);
  if (!res.ok) return [];
  return ((await res.json()) as { data: JaegerTrace[] | null }).data ?? [];
}

const serviceOf = (trace: JaegerTrace, span: JaegerSpan) => trace.processes[span.processID]?.serviceName;
const tag = (span: JaegerSpan, key: string) => span.tags.find((t) => t.key === key)?.value;

/** What one trace holds: per span, its service, name and kind. */
function shapeOf(trace: JaegerTrace) {
  return trace.spans.map((span) => ({
    service: serviceOf(trace, span),
    name: span.operationName,
    kind: tag(span, 'span.kind'),
    db: tag(span, 'db.system') ?? tag(span, 'db.system.name'),
  }));
}

/**
 * The one trace holding a span named `acquirerSpan` whose web request matches `request`, once it holds the worker's
 * job span too (spans reach the store from each process on its own schedule).
 */
async function journeyTrace(acquirerSpan: string, request: RegExp, workerQueue: string): Promise<JaegerTrace[]> {
  return eventually<JaegerTrace[] | false>(
    async () => {
      const matching = (await tracesOf('payments-web')).filter(
        (trace) =>
          trace.spans.some((s) => s.operationName === acquirerSpan) &&
          trace.spans.some(
            (s) =>
              serviceOf(trace, s) === 'payments-web' &&
              tag(s, 'span.kind') === 'server' &&
              request.test(s.operationName),
          ),
      );
      const complete = matching.filter((trace) =>
        trace.spans.some(
          (s) => serviceOf(trace, s) === 'payments-worker' && s.operationName === `process ${workerQueue}`,
        ),
      );
      return complete.length ? matching : false;
    },
    30_000,
    250,
  ) as Promise<JaegerTrace[]>;
}

/** Web (its HTTP server span), the queue hop (a producer span), the worker's job span and the acquirer call. */
function assertSpansAcross(t: import('ava').ExecutionContext, trace: JaegerTrace, acquirerSpan: string, queue: string) {
  const spans = shapeOf(trace);
  const has = (what: string, match: (s: (typeof spans)[number]) => boolean) => t.true(spans.some(match), what);
  has('the web request', (s) => s.service === 'payments-web' && s.kind === 'server');
  has('the queue hop', (s) => s.service === 'payments-web' && s.kind === 'producer' && s.name.includes(queue));
  has(
    'the worker job',
    (s) => s.service === 'payments-worker' && s.kind === 'consumer' && s.name === `process ${queue}`,
  );
  has('the acquirer call', (s) => s.name === acquirerSpan);
  has('its HTTP request', (s) => s.kind === 'client' && /^(POST|PUT|GET)$/.test(s.name));
  has('the acquirer answering', (s) => s.service === 'payments-sandbox' && s.kind === 'server');
  has('a database command', (s) => s.kind === 'client' && s.db === 'mongodb');
  has('a Redis command', (s) => s.kind === 'client' && s.db === 'redis');
}

/** The server span of a GET /healthz, whichever name and attribute convention the instrumentation uses. */
const isHealthCheck = (span: JaegerSpan) =>
  span.operationName === 'GET /healthz' ||
  tag(span, 'url.path') === '/healthz' ||
  tag(span, 'http.target') === '/healthz';

/** The web's log line of the request, by its path: it carries the trace's id. */
function requestLogLine(path: RegExp): { trace_id?: string; span_id?: string } {
  const lines = web.logs
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string }; trace_id?: string; span_id?: string });
  const found = lines.filter((line) => line.msg === 'request completed' && path.test(line.req?.url ?? ''));
  if (found.length !== 1) throw new Error(`${found.length} request log lines match ${path}`);
  return found[0];
}

test.serial('a pre-captured sale is one trace across web, queue, worker and acquirer', async (t) => {
  const sale = await callJson(web, 'POST', PRE_CAPTURE, bearer(merchant.merchantToken), cardSale());
  t.is(sale.status, 200);
  const [trace, ...more] = await journeyTrace('acquirer createCardSale', /pre-capture/, ACCOUNT_EVENT_QUEUE);
  t.is(more.length, 0);
  assertSpansAcross(t, trace, 'acquirer createCardSale', ACCOUNT_EVENT_QUEUE);
  const line = requestLogLine(/\/online\/sales\/pre-capture/);
  t.is(line.trace_id, trace.traceID);
  t.true(trace.spans.some((s) => s.spanID === line.span_id));
});

test.serial('a paid link and its webhook delivered by the worker are one trace', async (t) => {
  const { guid } = await readyLink(web.url, merchant, { webhookUrl: receiver.url('/paid') });
  const paid = await callJson(
    web,
    'PUT',
    `/api/v1/checkout-links/${guid}/pay`,
    {},
    { encrypted_card: encryptedTestCard({ number: APPROVED_CARD }) },
  );
  t.true(paid.body.approved);
  await eventually(() => receiver.at('/paid').length === 1, 30_000);
  const [trace, ...more] = await journeyTrace('acquirer createCardSale', /checkout-links|\/pay/, LINK_WEBHOOK_QUEUE);
  t.is(more.length, 0);
  assertSpansAcross(t, trace, 'acquirer createCardSale', LINK_WEBHOOK_QUEUE);
  t.is(requestLogLine(new RegExp(`/checkout-links/${guid}/pay$`)).trace_id, trace.traceID);
});

test.serial("a subscription's charge by the worker is one trace with the request that created it", async (t) => {
  const created = await createSubscription(web.url, merchant, { firstDueDate: dayOf(new Date()), cardLastDigit: 1 });
  t.is(created.status, 201, JSON.stringify(created.body));
  const [trace, ...more] = await journeyTrace('acquirer createCardSale', /subscriptions/, CHARGE_QUEUE);
  t.is(more.length, 0);
  assertSpansAcross(t, trace, 'acquirer createCardSale', CHARGE_QUEUE);
  // The sale was created by the worker, inside the job's span.
  const acquirer = trace.spans.find((s) => s.operationName === 'acquirer createCardSale')!;
  t.is(serviceOf(trace, acquirer), 'payments-worker');
  t.is(requestLogLine(/\/api\/v1\/subscriptions\/?$/).trace_id, trace.traceID);
});

test('traces are off without OTEL variables, and OTEL_SDK_DISABLED=true wins over an endpoint', async (t) => {
  t.false(tracingWanted({}));
  t.false(tracingWanted({ OTEL_SERVICE_NAME: 'payments-web' }));
  t.false(tracingWanted({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }));
  t.false(tracingWanted({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }));
  t.true(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }));
  t.true(tracingWanted({ OTEL_TRACES_EXPORTER: 'otlp' }));

  // A web process with no OTEL variable at all, and one that names our Jaeger but is disabled: no span, nothing
  // reaches Jaeger, no log line carries a trace id. The traced web of this file is the control.
  const bare = Object.fromEntries(
    Object.keys(process.env)
      .filter((k) => k.startsWith('OTEL_'))
      .map((k) => [k, '']),
  );
  const [quiet, disabled] = await Promise.all([
    startProcess('web', bare),
    startProcess('web', {
      OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpUrl,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SDK_DISABLED: 'true',
      OTEL_SERVICE_NAME: 'payments-web-disabled',
    }),
  ]);
  for (const proc of [quiet, disabled, web]) t.is((await callJson(proc, 'GET', '/healthz')).status, 200);
  // The control's request reaches Jaeger; then a later request of the control does too: the disabled one's,
  // sent before it with the same export delay, would have arrived by then.
  const healthChecks = async () => (await tracesOf('payments-web')).filter((tr) => tr.spans.some(isHealthCheck)).length;
  await eventually(async () => (await healthChecks()) >= 1, 30_000);
  const before = await healthChecks();
  t.is((await callJson(web, 'GET', '/healthz')).status, 200);
  await eventually(async () => (await healthChecks()) > before, 30_000);
  t.deepEqual(await tracesOf('payments-web-disabled'), []);
  const services = ((await (await fetch(`${jaeger.queryUrl}/api/services`)).json()) as { data: string[] }).data;
  t.false(services.includes('payments-web-disabled'));
  for (const proc of [quiet, disabled]) {
    const logged = proc.logs
      .join('')
      .split('\n')
      .filter((line) => line.includes('"request completed"'));
    t.true(logged.length > 0);
    t.false(
      logged.some((line) => line.includes('trace_id')),
      proc.logs.join(''),
    );
  }
  t.true(
    web.logs
      .join('')
      .split('\n')
      .some((l) => l.includes('"request completed"') && l.includes('trace_id')),
  );
});
