/** Test cards as a partner sends them: encrypted with our public key, as the API takes them. */
import { encryptCard, type ClearCard } from '../../src/cards';

/** The sandbox approves it (a Visa ending in 0). */
export const APPROVED_CARD_NUMBER = '4000000000000010';

/** A card in the clear that expires in three years, so no test meets its expiry. */
export function clearTestCard(overrides: Partial<ClearCard> = {}): ClearCard {
  return {
    number: APPROVED_CARD_NUMBER,
    holder: 'MARIA SILVA',
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 3,
    cvv: '123',
    ...overrides,
  };
}

/** The same card encrypted for the API's `encrypted_card` fields. */
export function encryptedTestCard(overrides: Partial<ClearCard> = {}): string {
  return encryptCard(clearTestCard(overrides));
}

/**
 * A pre-capture body of a card sale (one installment, a valid CPF) on `encryptedCard`; `overrides` replace or add
 * fields.
 */
export function cardSaleBody(encryptedCard: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    payment_method: 'card',
    value: 1990,
    installments: 1,
    encrypted_card: encryptedCard,
    payer: { name: 'Maria Silva', document: '529.982.247-25' },
    ...overrides,
  };
}
