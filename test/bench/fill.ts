/**
 * Pre-fills the bench database so every case runs against collections of a platform in use, not an
 * empty store: BENCH_RECORDS documents (default 10,000) in each business collection, all of OTHER
 * merchants than the ones the cases create, once at the start of the run.
 *
 * The documents are what the services write (every field the schema declares, realistic values,
 * unique keys unique) but in settled states: nothing here is due, pending, reconciling or
 * unapplied, so no case's job, sweep or scheduler query picks one up, and the web process's
 * `needs_attention` counts stay 0. One-per-parent collections (transitions, claims, cancellations,
 * refunds) hold one document per parent that has one.
 *
 * Speed: documents are built here and sent with the driver's insertMany (1,000 per command,
 * unordered), several collections at a time; the first document of each collection is checked
 * against its mongoose schema (validateSync), so a schema change fails the fill, not a case.
 */
import crypto from 'node:crypto';
import type mongoose from 'mongoose';
import { MerchantTokenModel, UserModel } from '../../src/auth/model';
import { MerchantModel } from '../../src/merchants/model';
import { hashPassword } from '../../src/auth/crypto';
import { sha256Hex } from '../../src/platform/digests';
import { ChargebackEventModel, ChargebackModel, ChargebackNoticeModel } from '../../src/chargebacks/model';
import { CommercialContactModel } from '../../src/contacts/model';
import { LINK_PAID, LinkIdempotencyModel, PaymentClaimModel, PaymentLinkModel } from '../../src/payment-links/model';
import {
  PaymentModel,
  PaymentNoticeModel,
  SaleIdempotencyModel,
  SaleTransitionModel,
  SavedCardModel,
} from '../../src/payments/model';
import {
  ChargeAttemptModel,
  ChargeRefundModel,
  ChargeStatus,
  SubscriptionCancellationModel,
  SubscriptionChargeModel,
  SubscriptionModel,
} from '../../src/subscriptions/model';
import { WebhookAttemptModel, WebhookEventModel, WebhookSecretModel } from '../../src/webhooks/model';

export const BENCH_RECORDS = Number(process.env.BENCH_RECORDS ?? 10_000);
/**
 * Integer ids of filled documents: above every range the cases and the id sequences use (cases:
 * below 2,000,000,000; sequences count up from 1), below 2^31 so they stay int32 like real ids.
 */
export const FILL_ID_BASE = 2_000_000_000;
const MAX_RECORDS = 140_000;
const BATCH = 1000;
const PARALLEL = Number(process.env.BENCH_FILL_PARALLEL || 4);
const DAY = 24 * 3600 * 1000;

const id = (i: number) => FILL_ID_BASE + i;
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const hex = (seed: string) => sha256Hex(seed);
/** A stable UUID-shaped string from a seed (acquirer payment ids, link guids, keys). */
const uuidOf = (seed: string) => {
  const h = hex(seed);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
const dayString = (date: Date) => date.toISOString().slice(0, 10);
const ecOf = (i: number) => `30${pad(i, 8)}`; // establishment numbers: 10 digits, never the cases' 4xxxxxxxxx
const NAMES = [
  'Maria Silva',
  'João Souza',
  'Ana Oliveira',
  'Pedro Santos',
  'Carla Lima',
  'Lucas Pereira',
  'Fernanda Costa',
  'Rafael Almeida',
];

interface Fill {
  model: mongoose.Model<never>;
  /** Documents to write; at most BENCH_RECORDS. */
  count: (n: number) => number;
  doc: (i: number, n: number) => Record<string, unknown>;
}

function fills(now: Date, passwordHash: string): Fill[] {
  // Spread over the last 180 days.
  const ago = (i: number, n: number) => new Date(now.getTime() - DAY - Math.floor((i / Math.max(n, 1)) * 180 * DAY));
  const name = (i: number) => NAMES[i % NAMES.length];
  const all = (n: number) => n;
  const saleStatus = (i: number) =>
    (['CONFIRMED', 'CONFIRMED', 'CONFIRMED', 'PRE_CAPTURED', 'CANCELLED', 'REFUNDED', 'DENIED'] as const)[i % 7];
  const subscriptionCancelled = (i: number) => i % 10 === 0;
  const chargeRefunded = (i: number) => i % 20 === 5;
  const card = (i: number) => ({ brand: 'Visa', bin: '400000', last4: pad(i % 10_000, 4) });
  // A paid link's payment, as the link and the claim that paid it both record it.
  const linkPayment = (i: number) => ({
    acquirerPaymentId: uuidOf(`link-pay-${i}`),
    tid: pad(i, 20),
    returnCode: '6',
    returnMessage: 'Operation Successful',
    ...card(i),
    installments: 1,
  });
  return [
    {
      model: MerchantModel as never,
      count: all,
      doc: (i, n) => ({
        _id: id(i),
        companyName: `Comércio Exemplo ${i} LTDA`,
        settings: { allowVoidOnConfirmed: false },
        establishmentNumbers: [ecOf(i)],
        createdAt: ago(i, n),
        updatedAt: ago(i, n),
      }),
    },
    {
      model: UserModel as never,
      count: all,
      doc: (i, n) => ({
        _id: id(i),
        email: `fill-${i}@example.com`,
        login: `fill${i}`,
        passwordHash,
        role: 'merchant',
        merchantId: id(i),
        createdAt: ago(i, n),
        updatedAt: ago(i, n),
      }),
    },
    {
      model: MerchantTokenModel as never,
      count: all,
      doc: (i, n) => ({
        _id: hex(`fill-token-${i}`),
        merchantId: id(i),
        prefix: `mt_${hex(`p${i}`).slice(0, 7)}`,
        createdAt: ago(i, n),
        revokedAt: i % 9 === 0 ? ago(i, n) : null,
      }),
    },
    {
      model: PaymentModel as never,
      count: all,
      doc: (i, n) => {
        const status = saleStatus(i);
        const at = ago(i, n);
        const approved = status !== 'DENIED';
        return {
          _id: id(i),
          merchantId: id(i),
          merchantOrderId: `fill${pad(i, 10)}`,
          orderReference: `pedido-${i}`,
          paymentMethod: 'card',
          amountCents: 1000 + (i % 50_000),
          installments: 1 + (i % 6),
          status,
          payer: { name: name(i), document: '52998224725', documentType: 'CPF' },
          card: { ...card(i), fromToken: false },
          acquirer: {
            paymentId: uuidOf(`sale-${i}`),
            status: approved
              ? status === 'PRE_CAPTURED'
                ? 1
                : status === 'CANCELLED'
                  ? 10
                  : status === 'REFUNDED'
                    ? 11
                    : 2
              : 3,
            returnCode: approved ? '6' : '57',
            returnMessage: approved ? 'Operation Successful' : 'Card Expired',
            tid: pad(i, 20),
            proofOfSale: pad(i % 1_000_000, 6),
            authorizationCode: approved ? pad(i % 1_000_000, 6) : null,
          },
          denial: approved ? null : { code: '57', message: 'Card Expired' },
          pix: null,
          reconciliation: null,
          idempotencyRecordId: `${id(i)}:key-${i}`,
          capturedAt: status === 'CONFIRMED' || status === 'REFUNDED' ? at : null,
          cancelledAt: status === 'CANCELLED' ? at : null,
          refundedAt: status === 'REFUNDED' ? at : null,
          createdAt: at,
          updatedAt: at,
        };
      },
    },
    {
      // One per sale: the state each sale left (PRE_CAPTURED by capture or void, CONFIRMED by refund...).
      model: SaleTransitionModel as never,
      count: all,
      doc: (i, n) => {
        const status = saleStatus(i);
        const [fromStatus, operation] =
          status === 'REFUNDED'
            ? ['CONFIRMED', 'refund']
            : status === 'CANCELLED'
              ? ['PRE_CAPTURED', 'void']
              : status === 'DENIED'
                ? ['PROCESSING', 'settle']
                : ['PRE_CAPTURED', 'capture'];
        return { _id: `${id(i)}:${fromStatus}`, saleId: id(i), fromStatus, operation, createdAt: ago(i, n) };
      },
    },
    {
      model: SaleIdempotencyModel as never,
      count: all,
      doc: (i, n) => ({
        _id: `${id(i)}:key-${i}`,
        merchantId: id(i),
        bodyHash: hex(`body-${i}`),
        state: 'done',
        saleId: id(i),
        response: { status: 200, body: { sale_id: id(i), status: saleStatus(i) } },
        createdAt: ago(i, n),
      }),
    },
    {
      model: SavedCardModel as never,
      count: all,
      doc: (i, n) => ({ _id: hex(`card-token-${i}`), merchantId: id(i), ...card(i), createdAt: ago(i, n) }),
    },
    {
      model: PaymentNoticeModel as never,
      count: all,
      doc: (i, n) => {
        const raw = JSON.stringify({ PaymentId: uuidOf(`sale-${i}`), ChangeType: 1 });
        return {
          _id: hex(raw),
          raw,
          paymentId: uuidOf(`sale-${i}`),
          changeType: 1,
          receivedAt: ago(i, n),
          appliedAt: ago(i, n),
          result: 'applied',
        };
      },
    },
    {
      model: PaymentLinkModel as never,
      count: all,
      doc: (i, n) => {
        const at = ago(i, n);
        return {
          _id: id(i),
          guid: uuidOf(`link-${i}`),
          merchantId: id(i),
          merchantCompanyName: `Comércio Exemplo ${i} LTDA`,
          value: 5000 + (i % 100_000),
          description: `Produto ${i}`,
          payerName: name(i),
          document: '52998224725',
          documentValid: true,
          email: `cliente${i}@example.com`,
          mobile: '11987654321',
          installments: 1 + (i % 12),
          linkExpPeriod: 2,
          webhookUrl: `https://loja${i}.example.com/webhooks`,
          status: LINK_PAID,
          address: null,
          payment: linkPayment(i),
          declinedAttempts: 0,
          paymentDate: at,
          expiresAt: new Date(at.getTime() + 2 * DAY),
          createdAt: at,
          updatedAt: at,
        };
      },
    },
    {
      model: PaymentClaimModel as never,
      count: all,
      doc: (i, n) => ({
        _id: id(i),
        attemptKey: uuidOf(`attempt-${i}`),
        merchantOrderId: `link${pad(i, 10)}`,
        state: 'paid',
        startedAt: ago(i, n),
        payment: linkPayment(i),
        paymentDate: ago(i, n),
        notifiedAt: ago(i, n),
        checkedAt: null,
      }),
    },
    {
      model: LinkIdempotencyModel as never,
      count: all,
      doc: (i, n) => ({
        _id: `${id(i)}:link-key-${i}`,
        requestHash: hex(`link-body-${i}`),
        state: 'done',
        linkId: id(i),
        createdAt: ago(i, n),
      }),
    },
    {
      // Active ones fall due after today (the charges case's scheduler must find only its own), the rest are cancelled.
      model: SubscriptionModel as never,
      count: all,
      doc: (i, n) => {
        const cancelled = subscriptionCancelled(i);
        const at = ago(i, n);
        return {
          _id: id(i),
          merchantId: id(i),
          value: 1990 + (i % 20_000),
          billingCycle: 'monthly',
          firstDueDate: dayString(at),
          endDate: null,
          maxCycles: null,
          retry: true,
          status: cancelled ? 'cancelled' : 'active',
          nextDueDate: cancelled ? null : dayString(new Date(now.getTime() + (1 + (i % 28)) * DAY)),
          nextCycle: 1 + (i % 6),
          card: {
            token: uuidOf(`sub-card-${i}`),
            ...card(i),
            holder: name(i).toUpperCase(),
            expMonth: 12,
            expYear: now.getUTCFullYear() + 3,
          },
          customer: { name: name(i), email: `assinante${i}@example.com`, identity: '52998224725' },
          description: `Plano mensal ${i}`,
          cancelledAt: cancelled ? at : null,
          createdAt: at,
          updatedAt: at,
        };
      },
    },
    {
      model: SubscriptionCancellationModel as never,
      count: (n) => Math.ceil(n / 10),
      doc: (i, n) => ({ _id: id(i * 10), cancelledAt: ago(i * 10, n) }),
    },
    {
      // Past cycles, settled: confirmed, refunded, or denied with no retry left.
      model: SubscriptionChargeModel as never,
      count: all,
      doc: (i, n) => {
        const at = ago(i, n);
        const denied = i % 20 === 7;
        const refunded = chargeRefunded(i);
        return {
          _id: id(i),
          subscriptionId: id(i),
          merchantId: id(i),
          dueDate: dayString(at),
          cycle: i % 6,
          status: refunded ? ChargeStatus.REFUNDED : denied ? ChargeStatus.DENIED : ChargeStatus.CONFIRMED,
          value: 1990 + (i % 20_000),
          acquirerPaymentId: uuidOf(`charge-${i}`),
          denialCode: denied ? '51' : '',
          denialMessage: denied ? 'Insufficient Funds' : '',
          attempts: 1,
          nextRetryAt: null,
          paymentTransactionId: denied ? null : id(i),
          firstDeniedOn: denied ? dayString(at) : null,
          unsettledIdempotencyKey: null,
          unsettledMerchantOrderId: null,
          refundedAt: refunded ? at : null,
          createdAt: at,
          updatedAt: at,
        };
      },
    },
    {
      model: ChargeAttemptModel as never,
      count: all,
      doc: (i, n) => {
        const denied = i % 20 === 7;
        return {
          _id: `${id(i)}-1`,
          chargeId: id(i),
          attempt: 1,
          idempotencyKey: uuidOf(`charge-key-${i}`),
          merchantOrderId: `sub${pad(i, 10)}`,
          status: denied ? ChargeStatus.DENIED : ChargeStatus.CONFIRMED,
          acquirerPaymentId: uuidOf(`charge-${i}`),
          denialCode: denied ? '51' : '',
          denialMessage: denied ? 'Insufficient Funds' : '',
          nextRetryAt: null,
          paymentTransactionId: denied ? null : id(i),
          firstDeniedOn: denied ? dayString(ago(i, n)) : null,
          transportError: false,
          recordedAt: ago(i, n),
        };
      },
    },
    {
      model: ChargeRefundModel as never,
      count: (n) => Math.floor((n + 14) / 20),
      doc: (i, n) => ({
        _id: id(i * 20 + 5),
        subscriptionId: id(i * 20 + 5),
        requestedAt: ago(i * 20 + 5, n),
        completedAt: ago(i * 20 + 5, n),
      }),
    },
    {
      model: WebhookSecretModel as never,
      count: all,
      doc: (i, n) => ({
        _id: id(i),
        secret: `whsec_${Buffer.from(hex(`secret-${i}`), 'hex').toString('base64')}`,
        previousSecret: null,
        previousValidUntil: null,
        createdAt: ago(i, n),
        rotatedAt: null,
      }),
    },
    {
      model: WebhookEventModel as never,
      count: all,
      doc: (i, n) => {
        const at = ago(i, n);
        const body = JSON.stringify({
          type: 'payment_link.paid',
          timestamp: at.toISOString(),
          data: { payment_link_id: id(i), status: LINK_PAID },
        });
        return {
          _id: `msg_${id(i)}_1`,
          merchantId: id(i),
          linkId: id(i),
          sequence: 1,
          type: 'payment_link.paid',
          url: `https://loja${i}.example.com/webhooks`,
          body,
          state: 'delivered',
          attemptCount: 1,
          lastAttemptAt: at,
          deliveredAt: at,
          queuedAt: at,
          createdAt: at,
        };
      },
    },
    {
      model: WebhookAttemptModel as never,
      count: all,
      doc: (i, n) => ({
        eventId: `msg_${id(i)}_1`,
        merchantId: id(i),
        linkId: id(i),
        trigger: 'scheduled',
        at: ago(i, n),
        durationMs: 40 + (i % 200),
        statusCode: 200,
        success: true,
        error: null,
      }),
    },
    {
      model: ChargebackNoticeModel as never,
      count: all,
      doc: (i, n) => {
        const raw = JSON.stringify({
          idCase: 5_000_000 + i,
          idChargeback: 6_000_000 + i,
          establishmentNumber: Number(ecOf(i)),
          process: 'PRIMEIRO_CHARGEBACK',
        });
        return { _id: hex(raw), kind: 'new', raw, receivedAt: ago(i, n), appliedAt: ago(i, n) };
      },
    },
    {
      model: ChargebackEventModel as never,
      count: all,
      doc: (i, n) => ({
        _id: `received:${ecOf(i)}:${6_000_000 + i}`,
        kind: 'received',
        establishmentNumber: ecOf(i),
        idChargeback: String(6_000_000 + i),
        idCase: String(5_000_000 + i),
        at: ago(i, n),
        data: JSON.stringify({
          idCase: 5_000_000 + i,
          idChargeback: 6_000_000 + i,
          transactionAmount: 150.9,
          reasonCode: '4837',
        }),
        createdAt: ago(i, n),
      }),
    },
    {
      model: ChargebackModel as never,
      count: all,
      doc: (i, n) => {
        const accepted = i % 3 === 0;
        return {
          _id: `${ecOf(i)}:${6_000_000 + i}`,
          establishmentNumber: ecOf(i),
          idChargeback: String(6_000_000 + i),
          idCase: String(5_000_000 + i),
          status: accepted ? 'ACCEPTED' : i % 3 === 1 ? 'WON' : 'LOST',
          item: JSON.stringify({ idCase: 5_000_000 + i, idChargeback: 6_000_000 + i, transactionAmount: 150.9 }),
          lifecycle: '[]',
          receptionDate: dayString(ago(i, n)),
          treatmentDeadline: dayString(new Date(ago(i, n).getTime() + 15 * DAY)),
          acceptedAt: accepted ? ago(i, n) : null,
          refusedAt: accepted ? null : ago(i, n),
          outcomeAt: ago(i, n),
          eventCount: 1,
          updatedAt: ago(i, n),
        };
      },
    },
    {
      model: CommercialContactModel as never,
      count: all,
      doc: (i, n) => ({
        _id: id(i),
        name: `Gerente ${name(i)} ${i}`,
        nameKey: `gerente ${name(i).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()} ${i}`,
        email: `gerente${i}@example.com`,
        phone: `+55119${pad(i % 100_000_000, 8)}`,
        title: 'Gerente comercial',
        active: true,
        merchantIds: [id(i)],
        createdAt: ago(i, n),
        updatedAt: ago(i, n),
      }),
    },
  ];
}

export interface FillReport {
  records: number;
  seconds: number;
  collections: Record<string, number>;
}

async function fillOne(fill: Fill, records: number): Promise<[string, number]> {
  const count = fill.count(records);
  const collection = fill.model.collection;
  if (count > 0) {
    const Model = fill.model as unknown as mongoose.Model<Record<string, unknown>>;
    const invalid = new Model(fill.doc(0, records)).validateSync();
    if (invalid)
      throw new Error(
        `bench fill: a ${collection.collectionName} document does not pass its schema: ${invalid.message}`,
      );
  }
  for (let start = 0; start < count; start += BATCH) {
    const docs = Array.from({ length: Math.min(BATCH, count - start) }, (_, j) => fill.doc(start + j, records));
    await collection.insertMany(docs as never[], { ordered: false });
  }
  return [collection.collectionName, count];
}

/** Fills every business collection to `records` documents; returns what it wrote and how long it took. */
export async function fillCollections(records = BENCH_RECORDS, now = new Date()): Promise<FillReport> {
  if (!Number.isInteger(records) || records < 0 || records > MAX_RECORDS)
    throw new Error(`BENCH_RECORDS must be an integer from 0 to ${MAX_RECORDS} (the filled ids stay int32)`);
  const started = performance.now();
  // One scrypt hash for all: nobody logs in as them.
  const passwordHash = await hashPassword(crypto.randomBytes(12).toString('base64url'));
  const queue = fills(now, passwordHash);
  const collections: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let fill = queue.shift(); fill; fill = queue.shift()) {
        const [name, count] = await fillOne(fill, records);
        collections[name] = count;
      }
    }),
  );
  return { records, seconds: Math.round((performance.now() - started) / 100) / 10, collections };
}
