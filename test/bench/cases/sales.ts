/**
 * POST /api/v1/online/sales/pre-capture/ (an approved card, authorized, not captured) against:
 *  - the baseline: the same authorization sent straight to the sandbox acquirer (the acquirer
 *    call alone, the bare minimum of a sale);
 *  - the floor: the same work done the shortest way on the bare-Express baseline server: decrypt
 *    the card (src/cards, RSA), one insert of the sale into online_sales, and the same sandbox
 *    authorization through the same acquirer client. The ratio to the floor is what we add around
 *    the work a pre-capture cannot skip (credential, validation, the records that make it safe).
 */
import crypto from 'node:crypto';
import { getConfig } from '../../../config';
import { createCardSale } from '../../../src/acquirer/client';
import { decryptCard, encryptCard, summarizeCard } from '../../../src/cards';
import { PaymentModel } from '../../../src/payments/model';
import { newMerchant } from '../../helpers/identity';
import type { HttpCase } from './types';

const APPROVED_CARD = '4000000000000010';
/** The floor's sale ids: above the cases' and the fill's ranges, below 2^31. */
let floorSaleId = 2_100_000_000 + crypto.randomInt(0, 1000) * 10_000;

export const salesCase: HttpCase = {
  name: 'sales',
  route: 'POST /api/v1/online/sales/pre-capture/',
  needs: ['sandbox'],
  baseline: 'the same card authorization POSTed straight to the sandbox acquirer (/1/sales/)',
  floor:
    'bare Express: decrypt the card (RSA) + one insert into online_sales + the same authorization through the ' +
    'same acquirer client',
  mountBaseline(router) {
    router.post('/floor', async (req, res) => {
      const card = decryptCard(req.body?.encrypted_card);
      const summary = summarizeCard(card);
      const _id = floorSaleId++;
      const merchantOrderId = `floor${_id}`;
      const now = new Date();
      await PaymentModel.collection.insertOne({
        _id,
        merchantId: Number(req.body?.merchant_id),
        merchantOrderId,
        orderReference: null,
        paymentMethod: 'card',
        amountCents: Number(req.body?.value),
        installments: Number(req.body?.installments),
        status: 'PROCESSING',
        payer: { name: String(req.body?.payer?.name), document: null, documentType: null },
        card: { brand: summary.brand, bin: summary.bin, last4: summary.last4, fromToken: false },
        createdAt: now,
        updatedAt: now,
      } as never);
      const result = await createCardSale({
        idempotencyKey: merchantOrderId,
        merchantOrderId,
        amountCents: Number(req.body?.value),
        installments: Number(req.body?.installments),
        capture: false,
        customer: { name: String(req.body?.payer?.name), identity: '52998224725', identityType: 'CPF' },
        card: { ...card, brand: summary.brand },
      });
      res
        .status(result.approved ? 200 : 402)
        .json({ sale_id: _id, payment_id: result.paymentId, status: result.status });
    });
  },
  async prepare() {
    const merchant = await newMerchant();
    const expYear = new Date().getUTCFullYear() + 3;
    const card = { number: APPROVED_CARD, holder: 'MARIA SILVA', expMonth: 12, expYear, cvv: '123' };
    const sale = {
      payment_method: 'card',
      value: 15990,
      installments: 1,
      encrypted_card: encryptCard(card),
      payer: { name: 'Maria Silva', document: '529.982.247-25' },
    };
    const { merchantId, merchantKey } = getConfig().acquirer;
    const direct = {
      MerchantOrderId: 'bench0001',
      Customer: { Name: 'Maria Silva' },
      Payment: {
        Type: 'CreditCard',
        Amount: 15990,
        Currency: 'BRL',
        Country: 'BRA',
        Installments: 1,
        Capture: false,
        CreditCard: {
          CardNumber: APPROVED_CARD,
          Holder: card.holder,
          ExpirationDate: `12/${expYear}`,
          SecurityCode: '123',
          Brand: 'Visa',
        },
      },
    };
    return {
      subject: {
        method: 'POST',
        path: '/api/v1/online/sales/pre-capture/',
        headers: { authorization: `Bearer ${merchant.merchantToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(sale),
        expectStatus: 200,
      },
      baseline: {
        on: 'sandbox',
        method: 'POST',
        path: '/1/sales/',
        headers: { MerchantId: merchantId, MerchantKey: merchantKey, 'content-type': 'application/json' },
        body: JSON.stringify(direct),
        expectStatus: 201,
      },
      floor: {
        method: 'POST',
        path: '/baseline/sales/floor',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...sale, merchant_id: merchant.merchantId }),
        expectStatus: 200,
      },
    };
  },
};
