/**
 * Saved cards at the acquirer (section 2b of the reference): Zero Auth, which checks a card with its issuer without
 * charging it, and the read of a card token. Tokenising is `tokenizeCard` in client.ts, which re-exports this module
 * (as it does pix-recurrence.ts): callers import both from client.ts. Each operation is one call through
 * transport.ts; a refusal is a result, as a card denial is, and only a transport failure or a request the acquirer
 * refuses is an error.
 */
import crypto from 'node:crypto';
import { AcquirerRejectedError, AcquirerUnavailableError } from './errors';
import { expiryOf, str, type Json } from './mapping';
import { call } from './transport';
import type { ClearCardData } from './types';

/**
 * The acquirer's error code of a Zero Auth whose brand it does not check: it runs Zero Auth for Visa, Master and Elo
 * only, and enables each per merchant. Every card is sent and the acquirer's answer decides, so a brand it enables
 * for a merchant later is checked from then on with no change here.
 */
const BRAND_NOT_ENABLED = 57;

export type ZeroAuthResult =
  /** The issuer answered: `valid` false is a refusal, with its ReturnCode ("00" when valid). */
  | { checked: true; valid: boolean; returnCode: string; returnMessage: string; issuerTransactionId?: string }
  /** The acquirer does not run Zero Auth for this brand: nothing was checked. */
  | { checked: false; reason: 'brand_not_enabled' };

/**
 * POST /1/zeroauth: checks a card about to be stored (CardOnFile Usage First; Unscheduled, since what the card will
 * pay for is not known when it is saved). A brand the acquirer does not check (its error 57) is a result too. Any
 * other 4xx is an AcquirerRejectedError; a transport failure an AcquirerUnavailableError (nothing is charged either
 * way, so the caller may simply try again).
 */
export async function checkCardWithZeroAuth(card: ClearCardData): Promise<ZeroAuthResult> {
  let result: Awaited<ReturnType<typeof call>>;
  try {
    result = await call({
      operation: 'zeroAuth',
      method: 'POST',
      host: 'transactional',
      path: '/1/zeroauth',
      requestId: crypto.randomUUID(),
      body: {
        CardType: 'CreditCard',
        CardNumber: card.number,
        Holder: card.holder,
        ExpirationDate: expiryOf(card.expMonth, card.expYear),
        ...(card.cvv ? { SecurityCode: card.cvv } : {}),
        SaveCard: 'false',
        Brand: card.brand,
        CardOnFile: { Usage: 'First', Reason: 'Unscheduled' },
      },
    });
  } catch (error) {
    if (error instanceof AcquirerRejectedError && error.hasCode(BRAND_NOT_ENABLED))
      return { checked: false, reason: 'brand_not_enabled' };
    throw error;
  }
  const body = result!.body as Json;
  if (typeof body.Valid !== 'boolean')
    throw new AcquirerUnavailableError('acquirer zeroAuth: malformed answer (no Valid)', false, undefined, true);
  return {
    checked: true,
    valid: body.Valid,
    returnCode: String(body.ReturnCode ?? ''),
    returnMessage: String(body.ReturnMessage ?? ''),
    issuerTransactionId: str(body.IssuerTransactionId),
  };
}

/** What the acquirer shows of a tokenised card: the number masked. */
export interface TokenisedCard {
  maskedNumber: string;
  holder: string;
  expirationDate: string;
}

/** GET /1/card/{CardToken} on the query host: the card a token stands for, masked; null when the token is unknown. */
export async function getTokenisedCard(cardToken: string): Promise<TokenisedCard | null> {
  const result = await call({
    operation: 'getCardToken',
    method: 'GET',
    host: 'query',
    path: `/1/card/${encodeURIComponent(cardToken)}`,
    notFoundAsNull: true,
  });
  if (!result) return null;
  const body = result.body as Json;
  return {
    maskedNumber: String(body.CardNumber ?? ''),
    holder: String(body.Holder ?? ''),
    expirationDate: String(body.ExpirationDate ?? ''),
  };
}
