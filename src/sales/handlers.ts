/**
 * The online sales route handlers: each calls its service and turns the domain result into the
 * HTTP answer (errors are mapped by src/web/errors.ts).
 */
import type { Request, Response } from 'express';
import { NOTIFICATION_SIGNATURE_HEADER } from '../acquirer/client';
import { merchantIdOf } from '../auth/authenticate';
import { captureOnlineSale, pixStatus, preCapture, readOnlineSale, receivePaymentNotice } from './index';
import type { NoticeReceipt } from './schemas';
import type { SaleScope } from '../payments/transitions';

/** The merchant a system token without X-Merchant-Id acts for: all of them. */
function scopeOf(req: Request): SaleScope {
  return req.principal?.kind === 'system' && req.principal.merchantId === undefined ? undefined : merchantIdOf(req);
}

const saleId = (req: Request) => Number(req.params.id);
const success = (res: Response, data: unknown): void => {
  res.json({ status: 'success', data });
};

export const salesHandlers = {
  preCaptureSale: async (req: Request, res: Response) => {
    // The body and the key are checked by preCapture, with the card's decryption, in one answer.
    const { sale, replayed } = await preCapture(merchantIdOf(req), req.body, req.get('idempotency-key'));
    if (replayed) res.set('Idempotent-Replayed', 'true');
    success(res, sale);
  },
  captureSale: async (req: Request, res: Response) =>
    success(res, await captureOnlineSale(merchantIdOf(req), saleId(req), req.body ?? {})),
  getSale: async (req: Request, res: Response) => success(res, await readOnlineSale(merchantIdOf(req), saleId(req))),
  getPixStatus: async (req: Request, res: Response) => success(res, await pixStatus(scopeOf(req), saleId(req))),
  receivePaymentNotification: async (req: Request, res: Response) => {
    const rawBody = (req as Request & { rawBody?: Buffer }).rawBody;
    const { duplicate } = await receivePaymentNotice(rawBody, req.get(NOTIFICATION_SIGNATURE_HEADER));
    const receipt: NoticeReceipt = { received: true, duplicate };
    res.json(receipt);
  },
};
