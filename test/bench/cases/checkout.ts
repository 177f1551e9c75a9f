/**
 * GET /api/v1/checkout-links/:guid (the public checkout load) against a bare route doing the
 * same single indexed read (the link by guid): the ratio is validation, the view we build
 * (merchant name, RSA public key), helmet and logging.
 */
import { PaymentLinkModel } from '../../../src/payment-links/model';
import { newMerchant } from '../../helpers/identity';
import { readBaseline } from './read-baseline';
import type { HttpCase } from './types';

export const checkoutCase: HttpCase = {
  name: 'checkout',
  route: 'GET /api/v1/checkout-links/:guid',
  baseline: 'bare Express: findOne payment link by guid (indexed), answered as JSON',
  mountBaseline: readBaseline('/links/:guid', (req) =>
    PaymentLinkModel.findOne({ guid: String(req.params.guid) }).lean(),
  ),
  async prepare({ webUrl }) {
    const merchant = await newMerchant();
    const res = await fetch(`${webUrl}/api/v1/payment-links/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${merchant.merchantToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ value: 12990, description: 'Bench product', number_of_installments: 3 }),
    });
    const link = (await res.json()) as { payment_link_guid?: string };
    const guid = link.payment_link_guid;
    if (res.status !== 201 || !guid)
      throw new Error(`checkout case: could not create a link (${res.status}): ${JSON.stringify(link)}`);
    return {
      subject: { method: 'GET', path: `/api/v1/checkout-links/${guid}`, expectStatus: 200 },
      baseline: { method: 'GET', path: `/baseline/checkout/links/${guid}`, expectStatus: 200 },
    };
  },
};
