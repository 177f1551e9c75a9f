/**
 * The only code that talks to the card acquirer's card/PIX API (the chargeback API has its own
 * client): its operations, each one call through transport.ts (one keep-alive pool per process, a
 * connect timeout and a total timeout per call, MerchantId/MerchantKey headers, a RequestId on
 * every state-changing call), its answers read by mapping.ts into the shapes of types.ts. This
 * module is the entry point: it re-exports what callers use from those.
 *
 * Every transport failure (refused, reset, timeout, malformed JSON, 5xx) is thrown as
 * AcquirerUnavailableError; `outcomeUnknown` says whether the acquirer may have acted on it, in
 * which case the caller reconciles with getSaleByOrderId before concluding anything. A card
 * denial is a result (`approved: false`), never an error.
 *
 * Card data and the MerchantKey never leave these modules except on the wire to the acquirer:
 * nothing here logs a request body or headers.
 */
import { AcquirerUnavailableError } from './errors';
import { getConfig } from '../../config';
import { AcquirerNotConfiguredError } from './errors';
import { toThreeDSecureToken, type ThreeDSecureToken, type ThreeDSecureTokenRequest } from './authentication';
import { customerBody, expiryOf, isApprovedStatus, paymentOf, str, toSale, toUpdate, type Json } from './mapping';
import { call, requestIdFor } from './transport';
import type {
  AcquirerSale,
  CardSaleRequest,
  ClearCardData,
  CardSaleResult,
  PaymentUpdateResult,
  PixChargeRequest,
  PixChargeResult,
} from './types';

export * from './types';
export * from './pix-recurrence';
export * from './authentication';
export * from './zero-auth';
export { AcquirerRejectedError } from './errors';
export { isApprovedStatus } from './mapping';
export {
  acquirerEvents,
  callMayStillBeRunningMs,
  closeAcquirerClient,
  requestIdFor,
  type AcquirerCallEvent,
} from './transport';

/**
 * POST /1/sales/ of one order with its Payment (either kind); the answer's payment, and the fields
 * both kinds of result read from it the same way.
 */
async function postSale(
  operation: 'createCardSale' | 'createPixCharge',
  input: Pick<CardSaleRequest & PixChargeRequest, 'idempotencyKey' | 'merchantOrderId' | 'customer' | 'amountCents'>,
  payment: Json,
) {
  const result = await call({
    operation,
    method: 'POST',
    host: 'transactional',
    path: '/1/sales/',
    requestId: requestIdFor(input.idempotencyKey),
    body: { MerchantOrderId: input.merchantOrderId, Customer: customerBody(input.customer), Payment: payment },
  });
  const body = result!.body as Json;
  const answer = paymentOf(body, operation);
  const answered = {
    paymentId: answer.PaymentId,
    merchantOrderId: String(body.MerchantOrderId ?? input.merchantOrderId),
    status: answer.Status,
    returnCode: String(answer.ReturnCode ?? ''),
    returnMessage: String(answer.ReturnMessage ?? ''),
    amountCents: Number(answer.Amount ?? input.amountCents),
  };
  return { payment: answer, answered };
}

/**
 * POST /1/sales/ (credit card). Retrying with the same idempotencyKey sends the same RequestId,
 * and the acquirer answers the sale it already made instead of charging again.
 */
export async function createCardSale(input: CardSaleRequest): Promise<CardSaleResult> {
  const card = input.card;
  const creditCard: Json =
    'cardToken' in card
      ? { CardToken: card.cardToken, Brand: card.brand, ...(card.cvv ? { SecurityCode: card.cvv } : {}) }
      : {
          CardNumber: card.number,
          Holder: card.holder,
          ExpirationDate: expiryOf(card.expMonth, card.expYear),
          ...(card.cvv ? { SecurityCode: card.cvv } : {}),
          Brand: card.brand,
          SaveCard: Boolean(input.saveCard),
        };
  const { payment, answered } = await postSale('createCardSale', input, {
    Type: 'CreditCard',
    Amount: input.amountCents,
    Currency: 'BRL',
    Country: 'BRA',
    Installments: input.installments,
    Interest: 'ByMerchant',
    Capture: input.capture,
    Recurrent: Boolean(input.recurrent),
    ...(input.softDescriptor ? { SoftDescriptor: input.softDescriptor.slice(0, 13) } : {}),
    CreditCard: creditCard,
  });
  return {
    ...answered,
    approved: isApprovedStatus(payment.Status),
    capturedAmountCents: payment.CapturedAmount === undefined ? undefined : Number(payment.CapturedAmount),
    tid: str(payment.Tid),
    proofOfSale: str(payment.ProofOfSale),
    authorizationCode: str(payment.AuthorizationCode),
    cardToken: str(payment.CreditCard?.CardToken),
  };
}

/** POST /1/sales/ with Payment.Type Pix: a pending charge (Status 12) with its copy-and-paste code. */
export async function createPixCharge(input: PixChargeRequest): Promise<PixChargeResult> {
  const { payment, answered } = await postSale('createPixCharge', input, {
    Type: 'Pix',
    Amount: input.amountCents,
    ...(input.expiresInSeconds ? { QrCode: { Expiration: input.expiresInSeconds } } : {}),
  });
  if (typeof payment.QrCodeString !== 'string')
    throw new AcquirerUnavailableError('acquirer createPixCharge: malformed answer (no QrCodeString)', true);
  return {
    ...answered,
    qrCodeString: payment.QrCodeString,
    qrCodeBase64Image: str(payment.QrcodeBase64Image),
    expiresAt: str(payment.QrCode?.ExpiresAt ?? payment.ExpirationDate),
    proofOfSale: str(payment.ProofOfSale),
    acquirerTransactionId: str(payment.AcquirerTransactionId),
  };
}

/**
 * PUT /1/sales/{PaymentId}/capture[?amount=]: full capture unless amountCents is given. The
 * acquirer's state machine already refuses a second capture; pass idempotencyKey to have a
 * retry of the same attempt answered with the first answer (without it each call is new).
 */
export async function captureSale(paymentId: string, options: SaleUpdateOptions = {}): Promise<PaymentUpdateResult> {
  return updateSale('capture', paymentId, options);
}

/**
 * PUT /1/sales/{PaymentId}/void[?amount=]: voids an authorization (Status 10) or refunds a
 * captured sale (Status 11, or Status 2 with VoidedAmount for a partial refund).
 */
export async function voidSale(paymentId: string, options: SaleUpdateOptions = {}): Promise<PaymentUpdateResult> {
  return updateSale('void', paymentId, options);
}

interface SaleUpdateOptions {
  amountCents?: number;
  idempotencyKey?: string;
}

/** The PUT /1/sales/{PaymentId}/<operation>[?amount=] calls capture and void share. */
async function updateSale(
  operation: 'capture' | 'void',
  paymentId: string,
  options: SaleUpdateOptions,
): Promise<PaymentUpdateResult> {
  const query = options.amountCents ? `?amount=${options.amountCents}` : '';
  const result = await call({
    operation,
    method: 'PUT',
    host: 'transactional',
    path: `/1/sales/${encodeURIComponent(paymentId)}/${operation}${query}`,
    requestId: options.idempotencyKey ? requestIdFor(options.idempotencyKey) : crypto.randomUUID(),
  });
  return toUpdate(result!.body, operation);
}

/** Alias with the name payment APIs use for a void of a captured sale. */
export const refundSale = voidSale;

/** GET /1/sales/{PaymentId} on the query host; null when the acquirer does not know it. */
export async function getSale(paymentId: string): Promise<AcquirerSale | null> {
  const result = await call({
    operation: 'getSale',
    method: 'GET',
    host: 'query',
    path: `/1/sales/${encodeURIComponent(paymentId)}`,
    notFoundAsNull: true,
  });
  return result ? toSale(result.body as Json) : null;
}

/**
 * GET /1/sales?merchantOrderId= on the query host: the newest sale made with that order id, or
 * null when the acquirer has none (so a call that never arrived is proven harmless).
 */
export async function getSaleByOrderId(merchantOrderId: string): Promise<AcquirerSale | null> {
  const result = await call({
    operation: 'getSaleByOrderId',
    method: 'GET',
    host: 'query',
    path: `/1/sales?merchantOrderId=${encodeURIComponent(merchantOrderId)}`,
    notFoundAsNull: true,
  });
  if (!result) return null;
  const body = result.body as Json;
  // The acquirer answers a list of {PaymentId, ReceivedDate}; the sandbox also embeds the sales.
  const payments: Json[] = Array.isArray(body.Payments) ? body.Payments : [];
  if (!payments.length) return null;
  // ReceivedDate is "YYYY-MM-DD HH:mm:ss": it sorts as text; the stable sort keeps the acquirer's order on ties.
  const newest = [...payments]
    .sort((a, b) => String(a.ReceivedDate ?? '').localeCompare(String(b.ReceivedDate ?? '')))
    .at(-1)!;
  if (newest.Payment) return toSale(newest as Json);
  return getSale(String(newest.PaymentId));
}

/**
 * POST /1/card: stores a card at the acquirer and returns its CardToken, for later charges
 * with `card: { cardToken, brand }`. Needs a Luhn-valid number.
 */
export async function tokenizeCard(
  card: Omit<ClearCardData, 'cvv'> & { customerName?: string },
): Promise<{ cardToken: string }> {
  const result = await call({
    operation: 'tokenizeCard',
    method: 'POST',
    host: 'transactional',
    path: '/1/card',
    body: {
      CustomerName: card.customerName ?? card.holder,
      CardNumber: card.number,
      Holder: card.holder,
      ExpirationDate: expiryOf(card.expMonth, card.expYear),
      Brand: card.brand,
    },
  });
  const token = (result!.body as Json).CardToken;
  if (typeof token !== 'string')
    throw new AcquirerUnavailableError('acquirer tokenizeCard: malformed answer (no CardToken)', true);
  return { cardToken: token };
}

/**
 * Soft declines may succeed if tried again later (generic refusal, no funds, issuer or system
 * down, timeout); hard declines will not (not allowed, expired, lost, stolen, blocked...).
 * Anything not listed as soft is hard, so an unknown code is never retried blindly.
 */
export const SOFT_DECLINE_CODES: ReadonlySet<string> = new Set(['05', '51', '61', '91', '96', '98', '99']);

export function isSoftDecline(returnCode: string): boolean {
  return SOFT_DECLINE_CODES.has(returnCode);
}

// ---------------------------------------------------------------------------------------------
// 3-D Secure 2: the authentication service (reference 2c, docs/design/three-d-secure.md)
// ---------------------------------------------------------------------------------------------

/** Where the payer's browser loads the authentication service's script (the page's only third-party script). */
export function threeDSecureScriptUrl(): string {
  return `${getConfig().acquirer.threeDSecure.url}/Scripts/BP.Mpi.3ds20.min.js`;
}

/**
 * POST {ACQUIRER_3DS_URL}/v2/auth/token with HTTP Basic ClientId:ClientSecret: a single-use access token for the
 * script in one payer's browser, which authenticates one card once. Not cached: each checkout asks for its own.
 * Without a ClientId or ClientSecret configured, AcquirerNotConfiguredError (3-D Secure is off).
 */
export async function createThreeDSecureToken(input: ThreeDSecureTokenRequest): Promise<ThreeDSecureToken> {
  const { clientId, clientSecret } = getConfig().acquirer.threeDSecure;
  if (!clientId || !clientSecret) throw new AcquirerNotConfiguredError('3-D Secure (the authentication service)');
  const result = await call({
    operation: 'createThreeDSecureToken',
    method: 'POST',
    host: 'authentication',
    path: '/v2/auth/token',
    authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
    body: { EstablishmentCode: input.establishmentCode, MerchantName: input.merchantName, MCC: input.mcc },
  });
  return toThreeDSecureToken(result!.body);
}
