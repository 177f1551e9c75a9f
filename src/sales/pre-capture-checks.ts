/**
 * A pre-capture request checked whole, so one 400 names every bad field (docs/api/conventions.md): the
 * schema's rules and the Idempotency-Key header, then what no schema can state, on the keys the schema
 * accepted: the card's decryption and its rules, its brand, and the payer's CPF or CNPJ check digits.
 * A card that cannot be read is `encrypted_card`; one that decrypts but breaks a rule is named by its
 * field (`number`, `expiry`, `cvv`, `holder`), as docs/cards.md says and the checkout answers.
 */
import { CardError, decryptCard, summarizeCard, type ClearCard } from '../cards';
import { checkBody, fieldErrorsOf } from '../http/schema';
import { documentKind, normalizeDocument } from '../platform/brazilian-documents';
import { badRequest, type FieldErrors } from '../platform/errors';
import { idempotencyKeyHeader, preCaptureRequest, type PreCaptureInput } from './schemas';

export const INVALID_PAYER_DOCUMENT =
  'Enter a valid CPF (11 digits) or CNPJ (14 characters) with correct check digits.';

export interface CheckedPreCapture {
  input: PreCaptureInput;
  /** The clear card of a sale sent with encrypted_card; null for PIX or a card_token. */
  card: ClearCard | null;
}

/** The body's card, or what is wrong with it keyed by the field at fault. */
function cardOf(encrypted: string): { card: ClearCard } | { problems: FieldErrors } {
  let card: ClearCard;
  try {
    card = decryptCard(encrypted);
  } catch (error) {
    if (error instanceof CardError) return { problems: { [error.field]: [error.message] } };
    throw error;
  }
  if (summarizeCard(card).brand === 'Unknown') return { problems: { number: ['This card brand is not accepted.'] } };
  return { card };
}

/** The payer's document as sent, when the schema found nothing wrong with it (its check digits are ours). */
function payerDocumentOf(body: unknown, fields: FieldErrors): string | undefined {
  if (fields['payer.document'] || fields.payer) return undefined;
  const payer = (body as { payer?: { document?: unknown } } | null)?.payer;
  return typeof payer?.document === 'string' ? payer.document : undefined;
}

/**
 * Checks a pre-capture's body and Idempotency-Key (undefined: none sent) and gives the body as validated
 * (defaults filled) with its card decrypted; a 400 field map naming every bad field otherwise.
 */
export function checkPreCapture(body: unknown, idempotencyKey: string | undefined): CheckedPreCapture {
  const { value, fields } = checkBody(preCaptureRequest, body);
  if (idempotencyKey !== undefined) {
    const { error } = idempotencyKeyHeader.validate({ 'idempotency-key': idempotencyKey });
    if (error) Object.assign(fields, fieldErrorsOf(error));
  }
  let card: ClearCard | null = null;
  if (value.payment_method !== 'pix' && typeof value.encrypted_card === 'string') {
    const read = cardOf(value.encrypted_card);
    if ('card' in read) card = read.card;
    else Object.assign(fields, read.problems);
  }
  const document = payerDocumentOf(body, fields);
  if (document !== undefined && !documentKind(normalizeDocument(document)))
    fields['payer.document'] = [INVALID_PAYER_DOCUMENT];
  if (Object.keys(fields).length) throw badRequest(fields);
  return { input: value as PreCaptureInput, card };
}
