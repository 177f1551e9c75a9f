/**
 * Chargeback events: a notice the acquirer confirms is chargeback.received for the establishment's
 * owner, a lifecycle step chargeback.updated, each once however often its notice is applied; the
 * merchant's accept and refusal (its route, the acquirer answering 2xx) chargeback.accepted and
 * chargeback.refused, once, to the endpoints subscribed to them alone. The app runs
 * in this process with the notice worker and the event workers; the acquirer is the sandbox.
 */
import '../helpers/env';
import test from 'ava';
import { untilQueuesIdle } from '../helpers/queues';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { refusalWithPdf } from '../chargebacks/files';
import { eventually } from '../helpers/processes';
import { Receiver } from '../webhooks/receiver';
import { announceChargeback, decideStep, startChargebackStack, type ChargebackStack } from '../chargebacks/stack';
import {
  lifecycleNotice,
  newChargebackNotice,
  newEstablishment,
  newNoticeIds,
  postChargebackNotice,
} from '../helpers/chargeback-notices';
import { startWorker } from '../../src/queue/queues';
import { accountEventProcessor } from '../../jobs/processors/account-event';
import { endpointWebhookProcessor } from '../../jobs/processors/endpoint-webhook';
import { ChargebackNoticeModel } from '../../src/chargebacks/model';
import { acceptChargebacks, noticeFingerprint } from '../../src/chargebacks';
import { emitChargebackEvents } from '../../src/chargebacks/events';
import { createEndpoint, untilReceived, verifiedAt } from './helpers';
import { AccountEventModel } from '../../src/events/model';

let stack: ChargebackStack;
let merchant: TestMerchant;
const ec = newEstablishment();
const receiver = new Receiver();

test.before(async () => {
  await receiver.start();
  process.env.WEBHOOK_TEST_ALLOW_HOSTS = `127.0.0.1:${receiver.port}`;
  stack = await startChargebackStack({ noticeWorker: true });
  startWorker(accountEventProcessor.queue, accountEventProcessor.process, accountEventProcessor.worker);
  startWorker(endpointWebhookProcessor.queue, endpointWebhookProcessor.process, endpointWebhookProcessor.worker);
  merchant = await newMerchant({ establishmentNumbers: [ec] });
});
test.after.always(async () => {
  receiver.close();
  await stack?.close();
});

/** Posts a notice as the acquirer does and waits until the worker applied it. */
async function applied(body: Record<string, unknown>) {
  const status = (await postChargebackNotice(stack.url, body)).status;
  if (status !== 202) throw new Error(`notice answered ${status}`);
  await eventually(
    async () => (await ChargebackNoticeModel.findById(noticeFingerprint(body)).lean())?.appliedAt,
    30_000,
  );
}

test.serial('a received chargeback and its lifecycle step reach the owner once each', async (t) => {
  const endpoint = await createEndpoint(stack, merchant, {
    url: receiver.url('/cb'),
    enabled_events: ['chargeback.received', 'chargeback.updated'],
  });
  const notice = newChargebackNotice(ec, newNoticeIds());
  await announceChargeback(stack, notice);
  await applied(notice);
  const [received] = await untilReceived(receiver, '/cb', endpoint.secret, 'chargeback.received');
  const objectId = `${ec}-${notice.idChargeback}`;
  t.is(received.id, `evt_chargeback_${objectId}_received`);
  t.like(received.data, { establishmentNumber: ec, idChargeback: String(notice.idChargeback), status: 'PENDING' });

  const step = lifecycleNotice(ec, notice.idCase, 'A favor do Emissor', '2030-02-01');
  await decideStep(stack, ec, notice.idCase, step.message, step.ActionCicleDate);
  await applied(step);
  const [updated] = await untilReceived(receiver, '/cb', endpoint.secret, 'chargeback.updated');
  t.is(updated.sequence, 2);
  t.deepEqual(
    updated.data.lifecycle.map((s: any) => s.action),
    ['A favor do Emissor'],
  );

  // Applied again (a sweep, a retried job): nothing new is recorded or sent.
  await emitChargebackEvents(ec, String(notice.idChargeback));
  await untilQueuesIdle();
  t.deepEqual(
    verifiedAt(receiver, '/cb', endpoint.secret)
      .map((e) => e.type)
      .sort(),
    ['chargeback.received', 'chargeback.updated'],
  );
});

test.serial('a chargeback the merchant accepts is chargeback.accepted', async (t) => {
  const endpoint = await createEndpoint(stack, merchant, {
    url: receiver.url('/accepted'),
    enabled_events: ['chargeback.accepted'],
  });
  const notice = newChargebackNotice(ec, newNoticeIds());
  await announceChargeback(stack, notice);
  await applied(notice);
  const answer = await acceptChargebacks(null, {
    updateChargeback: [{ establishmentNumber: ec, idChargeback: String(notice.idChargeback) }],
  });
  t.is(answer.status, 200);
  const [accepted] = await untilReceived(receiver, '/accepted', endpoint.secret, 'chargeback.accepted');
  t.is(accepted.id, `evt_chargeback_${ec}-${notice.idChargeback}_accepted`);
  t.like(accepted.data, { status: 'ACCEPTED' });
  t.truthy(accepted.data.acceptedAt);
  t.is(accepted.sequence, 2, 'after its received event');
});

test.serial(
  'a chargeback the merchant refuses is chargeback.refused, once, to the endpoint that takes it',
  async (t) => {
    const refusals = await createEndpoint(stack, merchant, {
      url: receiver.url('/refused'),
      enabled_events: ['chargeback.refused'],
    });
    // Subscribed to every other chargeback event: it must get none of the refusal.
    const others = await createEndpoint(stack, merchant, {
      url: receiver.url('/not-refused'),
      enabled_events: ['chargeback.received', 'chargeback.updated', 'chargeback.accepted'],
    });
    const notice = newChargebackNotice(ec, newNoticeIds());
    await announceChargeback(stack, notice);
    await applied(notice);
    const objectId = `${ec}-${notice.idChargeback}`;
    await untilReceived(receiver, '/not-refused', others.secret, 'chargeback.received');

    // The merchant refuses it with its evidence, through its route; the sandbox answers 2xx.
    const refused = await callJson(
      stack,
      'PUT',
      '/api/v1/acquirer/chargeback/refuse/',
      bearer(merchant.accessToken),
      refusalWithPdf(ec, notice),
    );
    t.is(refused.status, 200, refused.text);
    const [event] = await untilReceived(receiver, '/refused', refusals.secret, 'chargeback.refused');
    t.is(event.id, `evt_chargeback_${objectId}_refused`);
    t.like(event.data, { establishmentNumber: ec, idChargeback: String(notice.idChargeback), status: 'REFUSED' });
    t.truthy(event.data.refusedAt);
    t.is(event.sequence, 2, 'after its received event');

    // Projected again (a re-applied notice, a sweep): nothing is recorded or sent twice.
    await emitChargebackEvents(ec, String(notice.idChargeback));
    await untilQueuesIdle();
    t.is(
      await AccountEventModel.countDocuments({ objectKey: `chargeback_${objectId}`, type: 'chargeback.refused' }),
      1,
    );
    t.deepEqual(
      verifiedAt(receiver, '/refused', refusals.secret).map((e) => e.id),
      [event.id],
    );
    t.deepEqual(
      verifiedAt(receiver, '/not-refused', others.secret)
        .filter((e) => e.data.idChargeback === String(notice.idChargeback))
        .map((e) => e.type),
      ['chargeback.received'],
    );
  },
);
