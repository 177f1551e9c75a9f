/**
 * The online sales route handlers: each calls its service and sends the answer.
 */
import type { Request, Response } from 'express';
import { merchantIdOf } from '../http/auth';
import { NOTIFICATION_SIGNATURE_HEADER } from '../acquirer/client';
import {
  cancelOnlineSale,
  captureOnlineSale,
  pixStatus,
  preCapture,
  readOnlineSale,
  receivePaymentNotice,
  type SaleAnswer,
  type SaleScope,
} from './service';

function send(res: Response, answer: SaleAnswer): void {
  if (answer.headers) res.set(answer.headers);
  res.status(answer.status).json(answer.body);
}

/** The merchant a system token without X-Merchant-Id acts for: all of them. */
function scopeOf(req: Request): SaleScope {
  return req.principal?.kind === 'system' && req.principal.merchantId === undefined ? undefined : merchantIdOf(req);
}

const saleId = (req: Request) => Number(req.params.id);

export const salesHandlers = {
  preCapture: async (req: Request, res: Response) =>
    send(res, await preCapture(merchantIdOf(req), req.body, req.get('idempotency-key') || undefined)),
  capture: async (req: Request, res: Response) => send(res, await captureOnlineSale(merchantIdOf(req), saleId(req))),
  cancel: async (req: Request, res: Response) => send(res, await cancelOnlineSale(merchantIdOf(req), saleId(req))),
  read: async (req: Request, res: Response) => send(res, await readOnlineSale(merchantIdOf(req), saleId(req))),
  pixStatus: async (req: Request, res: Response) => send(res, await pixStatus(scopeOf(req), saleId(req))),
  notice: async (req: Request, res: Response) => {
    const rawBody = (req as Request & { rawBody?: Buffer }).rawBody;
    send(res, await receivePaymentNotice(rawBody, req.get(NOTIFICATION_SIGNATURE_HEADER)));
  },
};
