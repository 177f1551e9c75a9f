/**
 * The merchant's account webhook endpoints (where every event of the account is POSTed) and the
 * deliveries of events to them, one per event and endpoint.
 */
import mongoose, { Schema } from 'mongoose';

export interface WebhookEndpoint {
  /** we_<24 hex>. */
  _id: string;
  merchantId: number;
  /** 0..MAX_ENDPOINTS-1, unique per merchant: the insert under {merchantId, slot} is what bounds the count. */
  slot: number;
  url: string;
  description: string;
  /** Event types, or ['*'] for every type. */
  enabledEvents: string[];
  enabled: boolean;
  /** Why the service disabled it (a delivery failed every attempt); null when enabled or disabled by the merchant. */
  disabledReason: string | null;
  disabledAt: Date | null;
  /** whsec_<base64 of 32 bytes>: signs deliveries (Standard Webhooks), shown once at creation and at rotation. */
  secret: string;
  previousSecret: string | null;
  previousValidUntil: Date | null;
  rotatedAt: Date | null;
  lastSuccessAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const endpointSchema = new Schema<WebhookEndpoint>(
  {
    _id: { type: String },
    merchantId: { type: Number, required: true },
    slot: { type: Number, required: true },
    url: { type: String, required: true },
    description: { type: String, default: '' },
    enabledEvents: { type: [String], required: true },
    enabled: { type: Boolean, default: true },
    disabledReason: { type: String, default: null },
    disabledAt: { type: Date, default: null },
    secret: { type: String, required: true },
    previousSecret: { type: String, default: null },
    previousValidUntil: { type: Date, default: null },
    rotatedAt: { type: Date, default: null },
    lastSuccessAt: { type: Date, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'webhook_endpoints' },
);
endpointSchema.index({ merchantId: 1, slot: 1 }, { unique: true });
// /metrics: endpoints disabled.
endpointSchema.index({ enabled: 1 });

export const WebhookEndpointModel = mongoose.model<WebhookEndpoint>('WebhookEndpoint', endpointSchema);

export const DELIVERY_STATES = ['pending', 'delivered', 'failed', 'gone'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface DeliveryAttempt {
  at: Date;
  trigger: 'scheduled' | 'redelivery';
  durationMs: number;
  statusCode: number | null;
  success: boolean;
  error: string | null;
}

export interface EndpointDelivery {
  /** <eventId>.<endpointId>: one per event and endpoint, whatever retries or sweeps happen. */
  _id: string;
  merchantId: number;
  endpointId: string;
  eventId: string;
  eventType: string;
  /** The exact JSON body sent and signed: every retry and redelivery is byte-identical. */
  body: string;
  state: DeliveryState;
  attemptCount: number;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  /** False while its job could not be added (Redis down): the scheduler sweep queues it. */
  queued: boolean;
  createdAt: Date;
  /** YYYY-MM-DD (UTC) of its event: removed with the event's day (the events' retention). */
  day?: string;
}

const deliverySchema = new Schema<EndpointDelivery>(
  {
    _id: { type: String },
    merchantId: { type: Number, required: true },
    endpointId: { type: String, required: true },
    eventId: { type: String, required: true },
    eventType: { type: String, required: true },
    body: { type: String, required: true },
    state: { type: String, enum: DELIVERY_STATES, default: 'pending' },
    attemptCount: { type: Number, default: 0 },
    lastAttemptAt: { type: Date, default: null },
    deliveredAt: { type: Date, default: null },
    queued: { type: Boolean, default: true },
    createdAt: { type: Date, required: true },
    day: { type: String },
  },
  { versionKey: false, collection: 'webhook_endpoint_deliveries' },
);
deliverySchema.index({ endpointId: 1, createdAt: -1 });
// The retention sweep: a day's deliveries.
deliverySchema.index({ day: 1 });
// /metrics: pending deliveries, oldest first (the outbox's age).
deliverySchema.index({ state: 1, createdAt: 1 });
// The sweep's query: deliveries whose job was never added.
deliverySchema.index({ queued: 1, createdAt: 1 });

export const EndpointDeliveryModel = mongoose.model<EndpointDelivery>('WebhookEndpointDelivery', deliverySchema);

/** Every attempt of a delivery, inserted (never lost to a concurrent read-modify-write of the delivery). */
export interface EndpointAttempt extends DeliveryAttempt {
  deliveryId: string;
  endpointId: string;
  merchantId: number;
  /** Its delivery's day: removed with it. */
  day?: string;
}

const attemptSchema = new Schema<EndpointAttempt>(
  {
    deliveryId: { type: String, required: true },
    endpointId: { type: String, required: true },
    merchantId: { type: Number, required: true },
    trigger: { type: String, required: true },
    at: { type: Date, required: true },
    durationMs: { type: Number, required: true },
    statusCode: { type: Number, default: null },
    success: { type: Boolean, required: true },
    error: { type: String, default: null },
    day: { type: String },
  },
  { versionKey: false, collection: 'webhook_endpoint_attempts' },
);
attemptSchema.index({ day: 1 });
attemptSchema.index({ endpointId: 1, at: -1 });

export const EndpointAttemptModel = mongoose.model<EndpointAttempt>('WebhookEndpointAttempt', attemptSchema);
