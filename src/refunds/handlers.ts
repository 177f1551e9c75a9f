/** The refund route handlers: each calls its service and turns the result into the HTTP answer. */
import type { Request, Response } from 'express';
import { merchantIdOf } from '../auth/authenticate';
import {
  cancelCapture,
  listSaleRefunds,
  readRefund,
  refundSale,
  refundSaleWithKey,
  refundSubscriptionCharge,
} from './index';

const idOf = (req: Request) => Number(req.params.id);

export const refundsHandlers = {
  createRefund: async (req: Request, res: Response) => {
    const key = req.get('idempotency-key') || undefined;
    const input = req.body ?? {};
    const merchantId = merchantIdOf(req);
    const outcome = key
      ? await refundSaleWithKey(merchantId, idOf(req), input, key)
      : { ...(await refundSale(merchantId, idOf(req), input)), replayed: false };
    if (outcome.replayed) res.set('Idempotent-Replayed', 'true');
    res.status(outcome.httpStatus).json({ status: 'success', data: outcome.refund });
  },
  listSaleRefunds: async (req: Request, res: Response) => {
    res.json({ status: 'success', data: await listSaleRefunds(merchantIdOf(req), idOf(req)) });
  },
  cancelSale: async (req: Request, res: Response) => {
    res.json({ status: 'success', data: await cancelCapture(merchantIdOf(req), idOf(req)) });
  },
  getRefund: async (req: Request, res: Response) => {
    res.json({ status: 'success', data: await readRefund(merchantIdOf(req), idOf(req)) });
  },
  refundSubscriptionCharge: async (req: Request, res: Response) => {
    const key = req.get('idempotency-key') || undefined;
    const { id, chargeId } = req.params;
    const outcome = await refundSubscriptionCharge(merchantIdOf(req), id, chargeId, req.body, key);
    if (outcome.httpStatus === 202 && outcome.refundId) res.set('Location', `/api/v1/refunds/${outcome.refundId}/`);
    res.status(outcome.httpStatus).json({ status: 'success', data: outcome.charge });
  },
};
