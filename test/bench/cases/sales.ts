/**
 * POST /api/v1/online/sales/pre-capture/ (an approved card, authorized, not captured) against the
 * same authorization sent straight to the sandbox acquirer in the same run: the acquirer call is
 * the floor of a sale, so the ratio is what we add around it (credential, validation, RSA card
 * decryption, the sale and transition records, the acquirer client).
 */
import { getConfig } from '../../../config';
import { encryptCard } from '../../../src/cards';
import { newMerchant } from '../../helpers/identity';
import type { HttpCase } from './types';

const APPROVED_CARD = '4000000000000010';

export const salesCase: HttpCase = {
  name: 'sales',
  route: 'POST /api/v1/online/sales/pre-capture/',
  needs: ['sandbox'],
  baseline: 'the same card authorization POSTed straight to the sandbox acquirer (/1/sales/)',
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
        CreditCard: { CardNumber: APPROVED_CARD, Holder: card.holder, ExpirationDate: `12/${expYear}`, SecurityCode: '123', Brand: 'Visa' },
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
    };
  },
};
