/**
 * The acquirer's card/PIX notifications: intake (signature checked, the body's shape checked), then stored and
 * applied by src/payments/notices.ts.
 */
import crypto from 'node:crypto';
import type { RequestHandler } from 'express';
import { getConfig } from '../../config';
import { NOTIFICATION_SIGNATURE_HEADER as SIGNATURE_HEADER } from '../acquirer/client';
import { safeEqual } from '../platform/digests';
import { ApiError, badRequest } from '../platform/errors';
import { storePaymentNotice } from '../payments/notices';
import { fieldErrorsOf } from '../http/schema';
import { paymentNotice } from './schemas';

export class InvalidNoticeSignature extends ApiError {
  constructor() {
    super(401, { detail: `Invalid or missing ${SIGNATURE_HEADER} signature.` });
  }
}

export function signNotice(rawBody: string | Buffer, secret = getConfig().acquirer.notificationSecret): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Whether the body is signed by `signature` (the header's value) with our notification secret. */
function signedBy(rawBody: Buffer | undefined, signature: string | undefined): boolean {
  return Boolean(rawBody?.length) && typeof signature === 'string' && safeEqual(signature.trim(), signNotice(rawBody!));
}

/**
 * Before the body is read: a request with no signature of the right shape is refused unread, as a
 * credential is on the other routes (issue 27: authenticate before any body is read).
 */
export const requireSignatureHeader: RequestHandler = (req, _res, next) => {
  if (!/^sha256=[0-9a-f]{64}$/.test(req.get(SIGNATURE_HEADER)?.trim() ?? '')) throw new InvalidNoticeSignature();
  next();
};

/** Once the body is read, before anything judges its content (a NUL, its fields): the signature over it. */
export const requireValidSignature: RequestHandler = (req, _res, next) => {
  if (!signedBy((req as typeof req & { rawBody?: Buffer }).rawBody, req.get(SIGNATURE_HEADER)))
    throw new InvalidNoticeSignature();
  next();
};

/**
 * Intake of an acquirer card/PIX notification: checks the HMAC (constant time), then has the raw
 * notice stored (one document per body) and its application queued. Answers at once; the worker does
 * the rest.
 */
export async function receivePaymentNotice(
  rawBody: Buffer | undefined,
  signature: string | undefined,
): Promise<{ duplicate: boolean }> {
  if (!signedBy(rawBody, signature)) throw new InvalidNoticeSignature();
  const raw = rawBody!.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest({ non_field_errors: ['The body is not JSON.'] });
  }
  const { value: notice, error } = paymentNotice.validate(parsed, { abortEarly: false, allowUnknown: true });
  if (error) throw badRequest(fieldErrorsOf(error));
  return storePaymentNotice(raw, notice);
}
