/**
 * The acquirer's JSON answers read into our shapes (types.ts); an answer without the fields every
 * caller relies on is an AcquirerUnavailableError whose outcome is unknown.
 */
import { AcquirerUnavailableError } from './errors';
import { AcquirerStatus, type AcquirerCustomer, type AcquirerSale, type PaymentUpdateResult } from './types';

export type Json = Record<string, any>;

export const str = (value: unknown): string | undefined =>
  value === undefined || value === null || value === '' ? undefined : String(value);

export function paymentOf(body: unknown, operation: string): Json {
  const payment = (body as Json)?.Payment;
  if (
    !payment ||
    typeof payment !== 'object' ||
    typeof payment.PaymentId !== 'string' ||
    typeof payment.Status !== 'number'
  ) {
    throw new AcquirerUnavailableError(`acquirer ${operation}: malformed answer (no Payment)`, true);
  }
  return payment as Json;
}

export function isApprovedStatus(status: number): boolean {
  return status === AcquirerStatus.Authorized || status === AcquirerStatus.PaymentConfirmed;
}

export function expiryOf(expMonth: number, expYear: number): string {
  const year = expYear < 100 ? 2000 + expYear : expYear;
  return `${String(expMonth).padStart(2, '0')}/${year}`;
}

export function customerBody(customer: AcquirerCustomer): Json {
  return {
    Name: customer.name,
    ...(customer.identity
      ? {
          Identity: customer.identity,
          IdentityType: customer.identityType ?? (customer.identity.length > 11 ? 'CNPJ' : 'CPF'),
        }
      : {}),
  };
}

export function toSale(body: Json): AcquirerSale {
  const payment = paymentOf(body, 'getSale');
  return {
    paymentId: payment.PaymentId,
    merchantOrderId: String(body.MerchantOrderId ?? ''),
    type: payment.Type,
    status: payment.Status,
    amountCents: Number(payment.Amount ?? 0),
    capturedAmountCents: Number(payment.CapturedAmount ?? 0),
    voidedAmountCents: Number(payment.VoidedAmount ?? 0),
    returnCode: String(payment.ReturnCode ?? ''),
    returnMessage: String(payment.ReturnMessage ?? ''),
    tid: str(payment.Tid),
    proofOfSale: str(payment.ProofOfSale),
    authorizationCode: str(payment.AuthorizationCode),
    cardToken: str(payment.CreditCard?.CardToken),
    card: payment.CreditCard
      ? { brand: String(payment.CreditCard.Brand ?? ''), maskedNumber: String(payment.CreditCard.CardNumber ?? '') }
      : undefined,
    qrCodeString: str(payment.QrCodeString),
    expiresAt: str(payment.QrCode?.ExpiresAt ?? payment.ExpirationDate),
    receivedDate: str(payment.ReceivedDate),
    capturedDate: str(payment.CapturedDate),
    voidedDate: str(payment.VoidedDate),
    raw: body,
  };
}

export function toUpdate(body: unknown, operation: string): PaymentUpdateResult {
  const b = body as Json;
  if (typeof b?.Status !== 'number')
    throw new AcquirerUnavailableError(`acquirer ${operation}: malformed answer (no Status)`, true);
  return {
    status: b.Status,
    returnCode: String(b.ReturnCode ?? ''),
    returnMessage: String(b.ReturnMessage ?? ''),
    reasonCode: typeof b.ReasonCode === 'number' ? b.ReasonCode : undefined,
    reasonMessage: str(b.ReasonMessage),
    tid: str(b.Tid),
    proofOfSale: str(b.ProofOfSale),
    authorizationCode: str(b.AuthorizationCode),
  };
}
