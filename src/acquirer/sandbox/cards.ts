/**
 * Sandbox of the acquirer's Zero Auth (POST /1/zeroauth, section 2b of the reference): checks a card without charging
 * it. The outcome follows the card sales' convention, the card number's last digit (sales.ts cardOutcome), so a test
 * card a sale approves passes Zero Auth and one a sale declines is refused with the same ReturnCode. (The acquirer's
 * own sandbox passes only numbers starting with 5; ours keeps one rule for every operation, docs/sandbox.md.)
 * Zero Auth runs for Visa, Master and Elo only: any other brand answers the acquirer's error 57. Tokens are issued and
 * read by the card API in sales.ts (POST /1/card, GET /1/card/{token}), where sales find them.
 *
 * It sits behind sales.ts's router, whose `/1` middleware counts the request and applies injected faults (operation
 * `create`, as any POST there); it checks the credentials itself all the same. Every request is kept, masked, for
 * GET /sandbox/zeroauth/requests: tests read how many checks reached the acquirer.
 */
import crypto from 'node:crypto';
import express, { type Request, type Router } from 'express';
import { luhnValid } from '../../cards';
import type { SandboxArea } from './area';
import { authenticate, cardOutcome, fail, idempotent, sandboxNow, type Answer, type Json } from './sales';

/** The brands the acquirer runs Zero Auth for. */
export const ZERO_AUTH_BRANDS: ReadonlySet<string> = new Set(['Visa', 'Master', 'Elo']);
const BRANDS = new Set(['Visa', 'Master', 'Amex', 'Elo', 'Aura', 'JCB', 'Diners', 'Discover', 'Hipercard']);
const CARD_TYPES = new Set(['CreditCard', 'DebitCard']);

/** The issuer's answer to a valid card. */
const VALID = { returnCode: '00', returnMessage: 'Transacao autorizada' };

interface ZeroAuthRequest {
  /** First six and last four digits, as the acquirer masks a card. */
  maskedNumber: string;
  brand: string;
  valid: boolean | null;
  returnCode: string | null;
  receivedAt: string;
}

const requests: ZeroAuthRequest[] = [];
const MAX_KEPT = 10_000;

const maskCard = (number: string) =>
  `${number.slice(0, 6)}${'*'.repeat(Math.max(number.length - 10, 0))}${number.slice(-4)}`;

/** The acquirer's validation errors of a Zero Auth body (HTTP 400), in its codes. */
function validationErrors(body: Json): { Code: number; Message: string }[] {
  const errors: { Code: number; Message: string }[] = [];
  if (body.CardType !== undefined && !CARD_TYPES.has(body.CardType))
    errors.push({ Code: 140, Message: 'CardType must be CreditCard or DebitCard' });
  if (typeof body.CardNumber !== 'string' || !/^\d{12,19}$/.test(body.CardNumber))
    errors.push({ Code: 127, Message: 'CardNumber is required (12 to 19 digits)' });
  if (typeof body.Holder !== 'string' || !body.Holder || body.Holder.length > 25)
    errors.push({ Code: 128, Message: 'Holder is required (up to 25 characters)' });
  if (typeof body.ExpirationDate !== 'string' || !/^(0[1-9]|1[0-2])\/\d{4}$/.test(body.ExpirationDate))
    errors.push({ Code: 126, Message: 'Credit Card Expiration Date is invalid' });
  if (body.SecurityCode !== undefined && !/^\d{3,4}$/.test(String(body.SecurityCode)))
    errors.push({ Code: 131, Message: 'SecurityCode is invalid' });
  if (!BRANDS.has(body.Brand)) errors.push({ Code: 130, Message: 'Brand is invalid' });
  return errors;
}

/** Whether MM/YYYY is past by the sandbox's clock (valid through the end of that month). */
function expired(expirationDate: string): boolean {
  const [month, year] = expirationDate.split('/').map(Number);
  return Date.UTC(year, month, 1) <= sandboxNow();
}

function issuerOutcome(body: Json): { valid: boolean; returnCode: string; returnMessage: string } {
  if (!luhnValid(body.CardNumber)) return { valid: false, returnCode: '14', returnMessage: 'Invalid Card Number' };
  if (expired(body.ExpirationDate)) return { valid: false, returnCode: '54', returnMessage: 'Expired Card' };
  const outcome = cardOutcome(body.CardNumber);
  return outcome.approved ? { valid: true, ...VALID } : { valid: false, ...outcome };
}

function zeroAuth(req: Request): Answer {
  const body = (req.body ?? {}) as Json;
  const errors = validationErrors(body);
  if (errors.length) return { status: 400, body: errors };
  const kept: ZeroAuthRequest = {
    maskedNumber: maskCard(body.CardNumber),
    brand: body.Brand,
    valid: null,
    returnCode: null,
    receivedAt: new Date(sandboxNow()).toISOString(),
  };
  requests.push(kept);
  if (requests.length > MAX_KEPT) requests.splice(0, requests.length - MAX_KEPT);
  if (!ZERO_AUTH_BRANDS.has(body.Brand)) return { status: 400, body: [{ Code: 57, Message: 'Brand not enabled' }] };
  const outcome = issuerOutcome(body);
  kept.valid = outcome.valid;
  kept.returnCode = outcome.returnCode;
  return {
    status: 200,
    body: {
      Valid: outcome.valid,
      ReturnCode: outcome.returnCode,
      ReturnMessage: outcome.returnMessage,
      // 15 digits, as the acquirer's examples show (randomInt's range is too small for them at once).
      IssuerTransactionId: `${crypto.randomInt(1, 10)}${String(crypto.randomInt(0, 10 ** 14)).padStart(14, '0')}`,
    },
  };
}

function router(): Router {
  const r = express.Router();
  r.post('/1/zeroauth', authenticate, idempotent(zeroAuth));

  /** Every Zero Auth received (oldest first), the number masked; `?last4=` keeps one card's. */
  r.get('/sandbox/zeroauth/requests', (req, res) => {
    const last4 = typeof req.query.last4 === 'string' ? req.query.last4 : undefined;
    res.json({ requests: last4 ? requests.filter((each) => each.maskedNumber.endsWith(last4)) : requests });
  });
  r.use('/1/zeroauth', (_req, res) => fail(res, 405, [{ Code: 405, Message: 'Method not allowed' }]));
  return r;
}

export const cardsSandboxArea: SandboxArea = { name: 'cards', router };
