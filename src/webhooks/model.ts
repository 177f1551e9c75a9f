/** Per-merchant signing secrets, the events sent to link webhooks, and every delivery attempt. */
import mongoose, { Schema } from 'mongoose';

export interface WebhookSecret {
  /** The merchant id: one secret per merchant. */
  _id: number;
  /** "whsec_" + base64 of 32 random bytes (Standard Webhooks format). */
  secret: string;
  /**
   * After a rotation the old secret also signs until previousValidUntil, so receivers can switch without losing events.
   */
  previousSecret: string | null;
  previousValidUntil: Date | null;
  createdAt: Date;
  rotatedAt: Date | null;
}

const secretSchema = new Schema<WebhookSecret>(
  {
    _id: { type: Number },
    secret: { type: String, required: true },
    previousSecret: { type: String, default: null },
    previousValidUntil: { type: Date, default: null },
    createdAt: { type: Date, required: true },
    rotatedAt: { type: Date, default: null },
  },
  { versionKey: false, collection: 'webhook_secrets' },
);

export const WebhookSecretModel = mongoose.model<WebhookSecret>('WebhookSecret', secretSchema);

/** The events the service emits to a link's webhook (checkout's notify); the store takes any type name. */
export const WEBHOOK_EVENT_TYPES = [
  'payment_link.paid',
  'payment_link.payment_denied',
  // A refund of the link's sale (src/refunds): once per refund, when it ends.
  'payment_link.refund_succeeded',
  'payment_link.refund_failed',
  // PIX at the checkout (src/checkout/pix.ts): a QR code that expired unpaid; one paid after the link was.
  'payment_link.pix_expired',
  'payment_link.paid_twice',
] as const;

export const EVENT_STATES = ['pending', 'delivered', 'failed', 'gone'] as const;
export type EventState = (typeof EVENT_STATES)[number];

export interface WebhookEvent {
  /** msg_<linkId>_<sequence>: the webhook-id header. Unique by _id, which also makes the sequence unique per link. */
  _id: string;
  merchantId: number;
  linkId: number;
  sequence: number;
  type: string;
  url: string;
  /** The exact JSON body sent (and signed), so every redelivery is byte-identical. */
  body: string;
  /** An event stored at most once per link, type and key (a refund's outcome: "refund:<id>"); absent otherwise. */
  onceKey?: string;
  state: EventState;
  attemptCount: number;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  /**
   * When its scheduled delivery job was queued; null while none is (Redis was down): the scheduler sweep queues those.
   */
  queuedAt: Date | null;
  createdAt: Date;
}

const eventSchema = new Schema<WebhookEvent>(
  {
    _id: { type: String },
    merchantId: { type: Number, required: true },
    linkId: { type: Number, required: true },
    sequence: { type: Number, required: true },
    type: { type: String, required: true },
    url: { type: String, required: true },
    body: { type: String, required: true },
    onceKey: { type: String, default: undefined },
    state: { type: String, enum: EVENT_STATES, default: 'pending' },
    attemptCount: { type: Number, default: 0 },
    lastAttemptAt: { type: Date, default: null },
    deliveredAt: { type: Date, default: null },
    queuedAt: { type: Date, default: null },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'webhook_events' },
);
eventSchema.index({ linkId: 1, sequence: -1 });
// The scheduler sweep's query: pending events never queued, oldest first.
eventSchema.index({ state: 1, queuedAt: 1, createdAt: 1 });

export const WebhookEventModel = mongoose.model<WebhookEvent>('WebhookEvent', eventSchema);

/** What made an attempt: the delivery schedule, or a merchant's redelivery request. */
export const ATTEMPT_TRIGGERS = ['scheduled', 'redelivery'] as const;

export interface WebhookAttempt {
  eventId: string;
  merchantId: number;
  linkId: number;
  trigger: (typeof ATTEMPT_TRIGGERS)[number];
  at: Date;
  durationMs: number;
  /** HTTP status of the receiver's answer; null when none came (timeout, refused, unsafe URL). */
  statusCode: number | null;
  success: boolean;
  error: string | null;
}

const attemptSchema = new Schema<WebhookAttempt>(
  {
    eventId: { type: String, required: true },
    merchantId: { type: Number, required: true },
    linkId: { type: Number, required: true },
    trigger: { type: String, enum: ATTEMPT_TRIGGERS, required: true },
    at: { type: Date, required: true },
    durationMs: { type: Number, required: true },
    statusCode: { type: Number, default: null },
    success: { type: Boolean, required: true },
    error: { type: String, default: null },
  },
  { versionKey: false, collection: 'webhook_attempts' },
);
attemptSchema.index({ eventId: 1, at: 1 });
attemptSchema.index({ linkId: 1, at: 1 });

export const WebhookAttemptModel = mongoose.model<WebhookAttempt>('WebhookAttempt', attemptSchema);
