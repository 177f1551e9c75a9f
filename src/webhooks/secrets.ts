/**
 * The merchant's signing secret and the Standard Webhooks signature (standardwebhooks.com):
 *   webhook-id: msg_<linkId>_<sequence>   (the same on every retry and redelivery of an event)
 *   webhook-timestamp: unix seconds of this attempt
 *   webhook-signature: "v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>", space-separated when
 *                      a rotated-out secret is still in its grace period (both sign).
 * The secret is per merchant, "whsec_<base64>", readable and rotatable by the merchant. It lives in
 * the database only: never in a job payload (Redis), so every delivery reads it and signs with the
 * secrets of that moment.
 */
import crypto from 'node:crypto';
import { createOnce } from '../db/claims';
import { WebhookSecretModel, type WebhookSecret } from './model';
import type { WebhookSecretAnswer } from './schemas';

/** A rotated-out secret keeps signing (beside the new one) this long. */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

function newSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64')}`;
}

/** The merchant's secret if it exists: a read only, for a merchant id not yet checked against a stored record. */
export async function findWebhookSecret(merchantId: number): Promise<WebhookSecret | null> {
  return WebhookSecretModel.findById(merchantId).lean();
}

/** The merchant's secret, created on first use (a concurrent first use loses the insert and reads the winner). */
export async function getWebhookSecret(merchantId: number): Promise<WebhookSecret> {
  const existing = await findWebhookSecret(merchantId);
  if (existing) return existing;
  const created = await createOnce(WebhookSecretModel, { _id: merchantId, secret: newSecret(), createdAt: new Date() });
  return created ?? (await WebhookSecretModel.findById(merchantId).lean())!;
}

/** A new secret signs from now on; the old one also signs for ROTATION_GRACE_MS. */
export async function rotateWebhookSecret(merchantId: number, now = new Date()): Promise<WebhookSecret> {
  const current = await getWebhookSecret(merchantId);
  const rotated = {
    secret: newSecret(),
    previousSecret: current.secret,
    previousValidUntil: new Date(now.getTime() + ROTATION_GRACE_MS),
    rotatedAt: now,
  };
  await WebhookSecretModel.updateOne({ _id: merchantId }, { $set: rotated });
  return { ...current, ...rotated };
}

export function presentSecret(secret: WebhookSecret): WebhookSecretAnswer {
  return {
    secret: secret.secret,
    created_at: secret.createdAt.toISOString(),
    rotated_at: secret.rotatedAt ? secret.rotatedAt.toISOString() : null,
    previous_secret_valid_until: secret.previousValidUntil ? secret.previousValidUntil.toISOString() : null,
  };
}

export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export function signedHeaders(
  secret: Pick<WebhookSecret, 'secret' | 'previousSecret' | 'previousValidUntil'>,
  id: string,
  body: string,
  now = new Date(),
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets = [secret.secret];
  if (secret.previousSecret && secret.previousValidUntil && secret.previousValidUntil > now)
    secrets.push(secret.previousSecret);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signatureOf(s, id, timestamp, body)).join(' '),
  };
}
