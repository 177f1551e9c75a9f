/**
 * Database round trips of the public checkout: load, payer step, address step, pay (approved with
 * and without a webhook, declined), counted by the driver's command monitoring (the counters
 * /metrics serves). Each round trip costs about a millisecond of FerretDB command handling, so a
 * count that grows is a regression: these tests fail on it. Serial: a concurrent test would add
 * its commands. The acquirer is the sandbox process (its calls are HTTP, not database commands).
 */
import '../helpers/env';
import test from 'ava';
import { countDbCommands } from '../helpers/db-commands';
import { PaymentClaimModel, PaymentLinkModel } from '../../src/payment-links/model';
import mongoose from 'mongoose';
import { WebhookEventModel } from '../../src/webhooks/model';
import { AccountEventModel } from '../../src/events/model';
import { APPROVED_CARD, DENIED_CARD, VALID_CPF, checkoutPath, readyLink, useLinkApp } from './helpers';
import { callJson } from '../helpers/http';
import { encryptedTestCard } from '../helpers/cards';

/**
 * The link's account event (src/events, with or without a webhookUrl): its object's last event read, its insert.
 * An approved card pay's insert carries its sale's sale.captured too (the sale's first event: no read for it).
 */
const ACCOUNT_EVENT = { 'account_events find': 1, 'account_events insert': 1 };

// The webhook's events are stored and queued; nothing delivers them here.
const shop = useLinkApp('Idas e Voltas ME', { allowWebhookHost: '127.0.0.1:9' });

function counted(method: string, path: string, body?: unknown) {
  return countDbCommands(() => callJson(shop.app, method, path, {}, body));
}

test.serial('checkout load: one read', async (t) => {
  const { guid } = await readyLink(shop.app.url, shop.merchant);
  const { result, commands } = await counted('GET', checkoutPath(guid));
  t.is(result.status, 200);
  t.log(commands);
  t.deepEqual(commands.by, { 'payment_links find': 1 });
});

test.serial('payer step: the link, the pay-in-progress guard, one update', async (t) => {
  const { guid } = await readyLink(shop.app.url, shop.merchant);
  const { result, commands } = await counted('PATCH', checkoutPath(guid, 'payer'), {
    payer_name: 'Ana Souza',
    document: VALID_CPF,
  });
  t.is(result.status, 200);
  t.log(commands);
  t.deepEqual(commands.by, { 'payment_links find': 1, 'payment_link_claims find': 1, 'payment_links update': 1 });
});

test.serial('address step: the link, the pay-in-progress guard, one update', async (t) => {
  const { guid } = await readyLink(shop.app.url, shop.merchant);
  const { result, commands } = await counted('PATCH', checkoutPath(guid, 'address'), {
    cep: '01310-100',
    street: 'Avenida Paulista',
    number: '1000',
  });
  t.is(result.status, 200);
  t.log(commands);
  t.deepEqual(commands.by, { 'payment_links find': 1, 'payment_link_claims find': 1, 'payment_links update': 1 });
});

test.serial('an invalid document in the payer step costs the link read only', async (t) => {
  const { guid } = await readyLink(shop.app.url, shop.merchant);
  const { result, commands } = await counted('PATCH', checkoutPath(guid, 'payer'), {
    payer_name: 'Ana Souza',
    document: '123.456.789-00',
  });
  t.is(result.status, 400);
  t.log(commands);
  t.deepEqual(commands.by, { 'payment_links find': 1 });
});

test.serial(
  'pay, approved, no webhook: link read, claim insert, its sale recorded, link paid, claim paid',
  async (t) => {
    const { guid, id } = await readyLink(shop.app.url, shop.merchant);
    const { result, commands } = await counted('PUT', checkoutPath(guid, 'pay'), {
      encrypted_card: encryptedTestCard({ number: APPROVED_CARD }),
    });
    t.is(result.status, 200);
    t.true(result.body.approved);
    t.log(commands);
    // A block of sale ids is claimed now and then (src/db/ids.ts: a read and an insert), not per pay.
    const { 'id_sequences insert': _idBlocks, 'id_sequences find': _idBlockReads, ...by } = commands.by;
    t.deepEqual(by, {
      'payment_links find': 1,
      'payment_link_claims insert': 1,
      // The card sale its refunds go to (src/payment-links/sale.ts), named by the link's paid write.
      'online_sales insert': 1,
      'payment_links update': 1,
      'payment_link_claims update': 1,
      ...ACCOUNT_EVENT,
    });
    // What the counts must not cost: the link paid once, and the claim records the payment with nothing owed.
    const claim = (await PaymentClaimModel.findById(id).lean())!;
    t.is(claim.state, 'paid');
    t.truthy(claim.notifiedAt);
    t.is(claim.payment?.last4, '0010');
    const link = (await PaymentLinkModel.findById(id).lean())!;
    t.is(link.status, 2);
    // The one insert held both: the sale's event and the link's, naming the sale.
    const events = await AccountEventModel.find({
      _id: mongoose.trusted({ $in: [`evt_sale_${link.saleId}_captured`, `evt_payment_link_${id}_paid`] }),
    }).lean();
    t.deepEqual(events.map((e) => e.type).sort(), ['payment_link.paid', 'sale.captured']);
  },
);

test.serial('pay, approved, with a webhook: the same plus the stored and queued paid event', async (t) => {
  const { guid, id } = await readyLink(shop.app.url, shop.merchant, { webhookUrl: 'http://127.0.0.1:9/hook' });
  const { result, commands } = await counted('PUT', checkoutPath(guid, 'pay'), {
    encrypted_card: encryptedTestCard({ number: APPROVED_CARD }),
  });
  t.is(result.status, 200);
  t.true(result.body.approved);
  t.log(commands);
  const {
    'webhook_events find': eventReads,
    'webhook_events insert': eventInserts,
    'webhook_events update': eventUpdates,
    'id_sequences insert': _idBlocks,
    'id_sequences find': _idBlockReads,
    ...ours
  } = commands.by;
  t.deepEqual(ours, {
    'payment_links find': 1,
    'payment_link_claims insert': 1,
    'online_sales insert': 1,
    'payment_links update': 1,
    'payment_link_claims update': 1,
    ...ACCOUNT_EVENT,
  });
  t.is(eventInserts, 1, 'the paid event is stored once');
  t.log(`webhook event commands (src/webhooks): ${(eventReads ?? 0) + eventInserts + (eventUpdates ?? 0)}`);
  const claim = (await PaymentClaimModel.findById(id).lean())!;
  t.is(claim.state, 'paid');
  t.truthy(claim.notifiedAt, 'the outbox mark: the event is stored');
  t.is(await WebhookEventModel.countDocuments({ linkId: id, type: 'payment_link.paid' }), 1);
});

test.serial('pay, declined: link read, claim insert, declined count, claim released', async (t) => {
  const { guid, id } = await readyLink(shop.app.url, shop.merchant);
  const { result, commands } = await counted('PUT', checkoutPath(guid, 'pay'), {
    encrypted_card: encryptedTestCard({ number: DENIED_CARD }),
  });
  t.is(result.status, 200);
  t.false(result.body.approved);
  t.log(commands);
  t.deepEqual(commands.by, {
    'payment_links find': 1,
    'payment_link_claims insert': 1,
    'payment_links update': 1,
    'payment_link_claims delete': 1,
    ...ACCOUNT_EVENT,
  });
  t.is(await PaymentClaimModel.countDocuments({ _id: id }), 0, 'the link stays payable');
});
