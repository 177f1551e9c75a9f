/**
 * Sandbox of the acquirer's authentication service (3-D Secure 2 MPI, reference 2c), under /mpi: the
 * single-use access token our server asks for (HTTP Basic ClientId:ClientSecret), the script a payer's page
 * loads (authentication-pages.ts), the calls that script makes, the issuer's challenge page, and the check a
 * sale's ExternalAuthentication gets (sales.ts calls refusedExternalAuthentication). The outcome of an
 * authentication is chosen by the card number (AUTHENTICATION_SCENARIOS). State lives in this process's memory;
 * docs/sandbox.md documents it.
 */
import crypto from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { getConfig } from '../../../config';
import { cardBrand } from '../../cards';
import { safeEqual } from '../../platform/digests';
import { eciFor, type AuthenticationLevel } from '../authentication';
import type { SandboxArea } from './area';
import {
  AUTHENTICATION_SCRIPT,
  challengeFinishedPage,
  challengeNotFoundPage,
  challengePage,
} from './authentication-pages';

/** How long an access token lives (the token answer's `expires_in` is in minutes, as the service's docs say). */
export const TOKEN_LIFETIME_MINUTES = 20;
/** The code the sandbox's "bank" expects on its challenge page. */
export const CHALLENGE_CODE = '1234';
/** A challenge not answered within this is abandoned: the payer failed it. */
const CHALLENGE_LIFETIME_MS = 10 * 60_000;
const MAX_REMEMBERED = 100_000;

/**
 * The authentication's outcome by the card number's 4th and 3rd digits from the end (the last digit stays the
 * sale's outcome, the 2nd from the end the Luhn filler of the sandbox's test cards); anything else passes
 * without a challenge.
 */
export const AUTHENTICATION_SCENARIOS: Record<string, Scenario> = {
  '01': 'challenge',
  '02': 'failure',
  '03': 'unenrolled',
  '04': 'attempted',
  '05': 'error',
};
type Scenario = 'frictionless' | 'challenge' | 'failure' | 'unenrolled' | 'attempted' | 'error';

export function scenarioOf(cardNumber: string): Scenario {
  return AUTHENTICATION_SCENARIOS[cardNumber.slice(-4, -2)] ?? 'frictionless';
}

/** 3DS 2.2 for Visa and Mastercard, 2.1 for Elo and Amex (reference 2c); any other brand is unsupported. */
const VERSION_BY_BRAND: Record<string, string> = { Visa: '2.2.0', Master: '2.2.0', Elo: '2.1.0', Amex: '2.1.0' };

type Outcome = 'success' | 'failure' | 'unenrolled' | 'error' | 'challenge';

interface Authentication {
  referenceId: string;
  transactionId: string;
  outcome: Outcome;
  /** The order it was asked for: a sale carrying it must be for the same card, amount and kind. */
  cardNumber: string;
  brand: string;
  amountCents: number;
  paymentMethod: 'credit' | 'debit';
  orderNumber: string;
  version: string;
  eci?: string;
  cavv?: string;
  xid?: string;
  createdAt: number;
}

interface IssuedToken {
  expiresAt: number;
  usedAt?: number;
}

const state = {
  tokens: new Map<string, IssuedToken>(),
  byReference: new Map<string, Authentication>(),
  byTransaction: new Map<string, Authentication>(),
};

type Json = Record<string, any>;
type Refusal = { status: number; body: { Code: number; Message: string }[] };

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.set(key, value);
  // Bounded for long runs (benchmarks): the oldest go first.
  if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value!);
}

/** What the issuer answers, frictionless or after the challenge: the ECI, and a CAVV when the liability moves. */
function conclude(authentication: Authentication, level: AuthenticationLevel, outcome: Outcome): void {
  authentication.outcome = outcome;
  authentication.eci = eciFor(authentication.brand, level);
  if (level !== 'not_authenticated') authentication.cavv = crypto.randomBytes(20).toString('base64');
}

// ---------------------------------------------------------------------------------------------
// The token (server to server)
// ---------------------------------------------------------------------------------------------

function basicCredentials(header: string | undefined): [string, string] | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

function issueToken(req: Request, res: Response): void {
  const { clientId, clientSecret } = getConfig().acquirer.threeDSecure;
  const given = basicCredentials(req.header('Authorization'));
  if (!clientId || !clientSecret || !given || !safeEqual(given[0], clientId) || !safeEqual(given[1], clientSecret)) {
    res.status(401).json([{ Code: 401, Message: 'Invalid ClientId or ClientSecret (HTTP Basic)' }]);
    return;
  }
  const body = (req.body ?? {}) as Json;
  const errors: { Code: number; Message: string }[] = [];
  if (typeof body.EstablishmentCode !== 'string' || !/^\d{10}$/.test(body.EstablishmentCode))
    errors.push({ Code: 422, Message: 'EstablishmentCode must be 10 digits' });
  if (typeof body.MerchantName !== 'string' || !body.MerchantName.trim() || body.MerchantName.length > 25)
    errors.push({ Code: 422, Message: 'MerchantName is required, up to 25 characters' });
  if (typeof body.MCC !== 'string' || !/^\d{4}$/.test(body.MCC))
    errors.push({ Code: 422, Message: 'MCC must be 4 digits' });
  if (errors.length) {
    res.status(400).json(errors);
    return;
  }
  const token = crypto.randomBytes(32).toString('base64url');
  remember(state.tokens, token, { expiresAt: Date.now() + TOKEN_LIFETIME_MINUTES * 60_000 });
  res.json({ access_token: token, token_type: 'bearer', expires_in: TOKEN_LIFETIME_MINUTES });
}

// ---------------------------------------------------------------------------------------------
// What the script calls (from the payer's page, any origin)
// ---------------------------------------------------------------------------------------------

/** The script runs in the merchant's page: its calls are cross-origin, with the token in a header, no cookies. */
function allowAnyPage(req: Request, res: Response, next: NextFunction): void {
  res.set({
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type',
    'Access-Control-Max-Age': '600',
  });
  if (req.method === 'OPTIONS') res.status(204).end();
  else next();
}

const scriptError = (code: string, message: string) => ({ Status: 'error', ReturnCode: code, ReturnMessage: message });

/** The bearer token of a script's call, or why it cannot authenticate (unknown, already used, expired). */
function presentedToken(req: Request): { issued: IssuedToken; problem?: undefined } | { problem: string } {
  const token = /^Bearer (\S+)$/.exec(req.header('Authorization') ?? '')?.[1];
  const issued = token ? state.tokens.get(token) : undefined;
  if (!issued) return { problem: 'Access token unknown' };
  if (issued.usedAt !== undefined) return { problem: 'Access token already used' };
  if (Date.now() >= issued.expiresAt) return { problem: 'Access token expired' };
  return { issued };
}

type Order = Pick<Authentication, 'cardNumber' | 'brand' | 'amountCents' | 'paymentMethod' | 'orderNumber'>;

/** The order the page's bpmpi_* fields describe, or the field at fault (named as the page names it). */
function readOrder(body: Json): { order?: Order; problem?: string } {
  const text = (name: string) => (typeof body[name] === 'string' ? body[name] : '');
  const number = text('CardNumber');
  if (!/^\d{12,19}$/.test(number)) return { problem: 'bpmpi_cardnumber must be 12 to 19 digits' };
  if (!/^(0?[1-9]|1[0-2])$/.test(text('CardExpirationMonth')))
    return { problem: 'bpmpi_cardexpirationmonth must be a month, 01 to 12' };
  if (!/^\d{4}$/.test(text('CardExpirationYear'))) return { problem: 'bpmpi_cardexpirationyear must be 4 digits' };
  if (!/^[1-9]\d{0,14}$/.test(text('TotalAmount')))
    return { problem: 'bpmpi_totalamount must be the amount in cents, a positive integer' };
  if (!/^([1-9]|[1-9]\d)$/.test(text('Installments'))) return { problem: 'bpmpi_installments must be 1 to 99' };
  const method = text('PaymentMethod').toLowerCase();
  if (method !== 'credit' && method !== 'debit') return { problem: 'bpmpi_paymentmethod must be credit or debit' };
  if (!['BRL', '986'].includes(text('Currency'))) return { problem: 'bpmpi_currency must be BRL (or 986)' };
  const orderNumber = text('OrderNumber');
  if (!orderNumber || orderNumber.length > 50) return { problem: 'bpmpi_ordernumber is required, up to 50 characters' };
  return {
    order: {
      cardNumber: number,
      brand: cardBrand(number),
      amountCents: Number(text('TotalAmount')),
      paymentMethod: method as Order['paymentMethod'],
      orderNumber,
    },
  };
}

function authenticate(req: Request, res: Response): void {
  const token = presentedToken(req);
  if (token.problem !== undefined) {
    res.status(401).json(scriptError('MPI401', token.problem));
    return;
  }
  const { order, problem } = readOrder((req.body ?? {}) as Json);
  if (!order) {
    res.status(400).json(scriptError('MPI422', problem!));
    return;
  }
  const version = VERSION_BY_BRAND[order.brand];
  if (!version) {
    res.json({
      Status: 'unsupportedBrand',
      ReturnCode: 'MPI600',
      ReturnMessage: 'Brand not supported for authentication',
    });
    return;
  }
  // Spent here, once an authentication starts: a token authenticates one card, once.
  token.issued.usedAt = Date.now();
  const authentication: Authentication = {
    ...order,
    referenceId: crypto.randomUUID(),
    transactionId: crypto.randomUUID(),
    outcome: 'challenge',
    version,
    createdAt: Date.now(),
  };
  // No Xid in Mastercard's 3DS 2 (its directory server's id stands for it); the others keep one.
  if (order.brand !== 'Master') authentication.xid = crypto.randomBytes(20).toString('base64');
  const scenario = scenarioOf(order.cardNumber);
  if (scenario === 'frictionless') conclude(authentication, 'authenticated', 'success');
  else if (scenario === 'attempted') conclude(authentication, 'attempted', 'success');
  else if (scenario === 'failure') conclude(authentication, 'not_authenticated', 'failure');
  else if (scenario === 'unenrolled') conclude(authentication, 'not_authenticated', 'unenrolled');
  else if (scenario === 'error') authentication.outcome = 'error';
  remember(state.byReference, authentication.referenceId, authentication);
  remember(state.byTransaction, authentication.transactionId, authentication);
  res.json(scriptAnswer(authentication));
}

/** The script's view of an authentication: the callback's fields (authentication-pages.ts maps Status to it). */
function scriptAnswer(authentication: Authentication): Json {
  const { outcome, referenceId } = authentication;
  if (outcome === 'challenge') return { Status: 'challenge', TransactionId: authentication.transactionId };
  if (outcome === 'error')
    return { ...scriptError('231', 'Unexpected error ocurred'), Xid: null, Eci: null, ReferenceId: referenceId };
  const common = { Xid: authentication.xid ?? null, Eci: authentication.eci, Version: authentication.version };
  return outcome === 'success'
    ? { Status: outcome, Cavv: authentication.cavv, ...common, ReferenceId: referenceId }
    : { Status: outcome, ...common, ReferenceId: referenceId };
}

/** A challenge still open, or undefined: one past CHALLENGE_LIFETIME_MS is concluded as failed (abandoned). */
function openChallenge(transactionId: string): Authentication | undefined {
  const authentication = state.byTransaction.get(transactionId);
  if (authentication?.outcome !== 'challenge') return undefined;
  if (Date.now() - authentication.createdAt > CHALLENGE_LIFETIME_MS) {
    conclude(authentication, 'not_authenticated', 'failure');
    return undefined;
  }
  return authentication;
}

// ---------------------------------------------------------------------------------------------
// The check of a sale's ExternalAuthentication (POST /1/sales/, called by sales.ts)
// ---------------------------------------------------------------------------------------------

const refusal = (Code: number, Message: string): Refusal => ({ status: 400, body: [{ Code, Message }] });

/**
 * Why a sale's authentication is refused (HTTP 400, nothing charged), or undefined: `Authenticate:true` needs an
 * `ExternalAuthentication` with an `Eci`; its `ReferenceId` must be an authentication this sandbox produced, with
 * the same `Cavv`, `Xid` and `Eci`, for the same card, amount and kind (credit or debit). A Data Only one is not
 * checked (it shifts no liability).
 */
export function refusedExternalAuthentication(payment: Json, cardNumber: string): Refusal | undefined {
  const given = payment.ExternalAuthentication;
  if (given === undefined || given === null)
    return payment.Authenticate === true
      ? refusal(320, 'ExternalAuthentication is required when Authenticate is true')
      : undefined;
  if (typeof given !== 'object' || Array.isArray(given))
    return refusal(320, 'ExternalAuthentication must be an object');
  if (given.DataOnly === true) return undefined;
  if (typeof given.Eci !== 'string' || !/^\d{1,2}$/.test(given.Eci))
    return refusal(321, 'ExternalAuthentication.Eci is required (one or two digits)');
  const stored =
    typeof given.ReferenceId === 'string' ? state.byReference.get(given.ReferenceId.toLowerCase()) : undefined;
  if (!stored || stored.outcome === 'challenge')
    return refusal(323, 'ExternalAuthentication.ReferenceId is not an authentication of this service');
  if (stored.cavv && !given.Cavv) return refusal(322, 'ExternalAuthentication.Cavv is required when authenticated');
  const same = (a: unknown, b: string | undefined) => (a === undefined || a === null || a === '' ? !b : a === b);
  if (!same(given.Cavv, stored.cavv) || !same(given.Xid, stored.xid) || given.Eci.padStart(2, '0') !== stored.eci)
    return refusal(324, 'ExternalAuthentication does not match its authentication (Cavv, Xid or Eci)');
  const kind = stored.paymentMethod === 'debit' ? 'DebitCard' : 'CreditCard';
  if (payment.Amount !== stored.amountCents || cardNumber !== stored.cardNumber || (payment.Type ?? kind) !== kind)
    return refusal(325, 'ExternalAuthentication is for another order (its card, amount or kind differ)');
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Router
// ---------------------------------------------------------------------------------------------

function router(): Router {
  const r = express.Router();
  r.post('/mpi/v2/auth/token', issueToken);
  r.get('/mpi/Scripts/BP.Mpi.3ds20.min.js', (_req, res) => {
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Access-Control-Allow-Origin': '*' });
    res.send(AUTHENTICATION_SCRIPT);
  });

  r.use('/mpi/v2/3ds', allowAnyPage);
  /** bpmpi_load: is the token good for an authentication? It is not spent. */
  r.post('/mpi/v2/3ds/check', (req, res) => {
    const { problem } = presentedToken(req);
    if (problem !== undefined) res.status(401).json(scriptError('MPI401', problem));
    else res.json({ Status: 'ready' });
  });
  r.post('/mpi/v2/3ds/authenticate', authenticate);
  /** The result once the challenge frame said the payer answered (the transaction id is the capability). */
  r.get('/mpi/v2/3ds/transactions/:transactionId', (req, res) => {
    openChallenge(req.params.transactionId);
    const authentication = state.byTransaction.get(req.params.transactionId);
    if (!authentication) res.status(404).json(scriptError('MPI404', 'Authentication not found'));
    else res.json(scriptAnswer(authentication));
  });

  r.get('/mpi/challenge/:transactionId', (req, res) => {
    const authentication = openChallenge(req.params.transactionId);
    if (!authentication) {
      const known = state.byTransaction.has(req.params.transactionId);
      res.status(known ? 200 : 404).type('html');
      res.send(known ? challengeFinishedPage(req.params.transactionId) : challengeNotFoundPage());
      return;
    }
    const { amountCents, cardNumber } = authentication;
    res.type('html').send(challengePage({ amountCents, last4: cardNumber.slice(-4), code: CHALLENGE_CODE }));
  });
  /** The payer's answer: the right code authenticates, a wrong one or Cancelar fails; the first answer stands. */
  r.post('/mpi/challenge/:transactionId', express.urlencoded({ extended: false, limit: '4kb' }), (req, res) => {
    const authentication = openChallenge(req.params.transactionId);
    if (authentication) {
      const passed = req.body?.action === 'confirm' && req.body?.code === CHALLENGE_CODE;
      conclude(authentication, passed ? 'authenticated' : 'not_authenticated', passed ? 'success' : 'failure');
    } else if (!state.byTransaction.has(req.params.transactionId)) {
      res.status(404).type('html').send(challengeNotFoundPage());
      return;
    }
    res.type('html').send(challengeFinishedPage(req.params.transactionId));
  });

  // ---- test-only controls ----
  /** A token's time runs out now: `{"access_token"}`. */
  r.post('/mpi/sandbox/tokens/expire', (req, res) => {
    const token = typeof req.body?.access_token === 'string' ? state.tokens.get(req.body.access_token) : undefined;
    if (!token) return void res.status(404).json({ detail: 'no such access_token' });
    token.expiresAt = Date.now();
    res.json({ expired: true });
  });
  /** What the service remembers of an authentication (the card masked), by its ReferenceId. */
  r.get('/mpi/sandbox/authentications/:referenceId', (req, res) => {
    const found = state.byReference.get(req.params.referenceId.toLowerCase());
    if (!found) return void res.status(404).json({ detail: 'no such authentication' });
    const { cardNumber, transactionId: _transactionId, ...shown } = found;
    res.json({ ...shown, card: `${cardNumber.slice(0, 6)}…${cardNumber.slice(-4)}` });
  });
  return r;
}

export const authenticationSandboxArea: SandboxArea = { name: 'authentication', router };
