/**
 * What saving cards leaves behind: no card number, no CVV and no clear acquirer token in any stored document (every
 * collection read raw) or in any log line of the web process and the sandbox, both at debug level, after valid,
 * refused, unchecked and hostile saves.
 */
import '../helpers/env';
import test from 'ava';
import mongoose from 'mongoose';
import { BSON } from 'mongodb';
import { openCardToken } from '../../src/cards/sealed-tokens';
import { CustomerCardModel, type CustomerCard } from '../../src/customers/model';
import { encryptedTestCard } from '../helpers/cards';
import { call } from '../helpers/http';
import { newMerchant } from '../helpers/identity';
import { startProcess } from '../helpers/processes';
import { useServices } from '../helpers/services';
import { asMerchant, CUSTOMERS, cardPath, cardsPath, ZERO_AUTH_CARDS } from './helpers';

useServices();

/** Each card with a CVV no other number in a log is likely to end in. */
const CARDS = [
  { number: ZERO_AUTH_CARDS.visaValid, cvv: '738' },
  { number: ZERO_AUTH_CARDS.refused05, cvv: '629' },
  { number: ZERO_AUTH_CARDS.amexUnchecked, cvv: '4817' },
  { number: ZERO_AUTH_CARDS.eloValid, cvv: '517' },
];

/** A card number as a log or a document might hold it: whole, or with separators between its digits. */
const numberPattern = (number: string) => new RegExp(number.split('').join('[ .-]?'));
/** A CVV next to a key that names it, in any spelling. */
const cvvPattern = (cvv: string) => new RegExp(`(cvv|cvc|security.?code)\\W{0,8}${cvv}\\b`, 'i');

test('no card number, cvv or clear token is stored or logged', async (t) => {
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0', LOG_LEVEL: 'debug' });
  const web = await startProcess('web', {
    ACQUIRER_BASE_URL: sandbox.url,
    ACQUIRER_QUERY_URL: sandbox.url,
    LOG_LEVEL: 'debug',
  });
  const merchant = await newMerchant();
  const headers = asMerchant(merchant);
  const customer = JSON.parse((await call(web, 'POST', CUSTOMERS, headers, { name: 'Maria Silva' })).text);

  const statuses: number[] = [];
  for (const card of CARDS) {
    const body = { encrypted_card: encryptedTestCard(card) };
    statuses.push((await call(web, 'POST', cardsPath(customer.id), headers, body)).status);
  }
  statuses.push(
    (await call(web, 'POST', cardsPath(customer.id), headers, { encrypted_card: encryptedTestCard(CARDS[0]) })).status,
  );
  t.deepEqual(statuses, [201, 422, 201, 201, 200]);

  // Hostile: the card in the clear by mistake, beside and instead of the encrypted one, and in malformed JSON.
  const [visa] = CARDS;
  const clear = { number: visa.number, cvv: visa.cvv, security_code: visa.cvv, card_number: visa.number };
  t.is((await call(web, 'POST', cardsPath(customer.id), headers, clear)).status, 400);
  t.is(
    (await call(web, 'POST', cardsPath(customer.id), headers, { encrypted_card: JSON.stringify(clear) })).status,
    400,
  );
  const malformed = `{"encrypted_card": "x", "card_number": ${visa.number}, "cvv": "${visa.cvv}"`;
  t.is((await call(web, 'POST', cardsPath(customer.id), headers, malformed)).status, 400);

  const list = JSON.parse((await call(web, 'GET', cardsPath(customer.id), headers)).text);
  t.is(list.results.length, 3);
  t.is((await call(web, 'DELETE', cardPath(customer.id, list.results[0].id), headers)).status, 204);

  // The clear tokens of the cards kept, to look for them where they must not be.
  const kept = await CustomerCardModel.find({ customerId: customer.id }).lean<CustomerCard[]>();
  const tokens = kept.map((card) => openCardToken(card.sealedToken!, card._id));
  t.is(tokens.length, 2);

  await Promise.all([web.stop(), sandbox.stop()]);
  const logs = { web: web.logs.join(''), sandbox: sandbox.logs.join('') };
  t.true(logs.web.split('\n').length > 10, 'the web process did log the run');

  const documents: Record<string, string> = {};
  const db = mongoose.connection.db!;
  for (const { name } of await db.listCollections().toArray())
    documents[name] = BSON.EJSON.stringify(await db.collection(name).find({}).toArray());
  t.true(documents.customer_cards.includes('"last4":"0010"'), 'the cards collection was read');

  const found: string[] = [];
  for (const [where, text] of Object.entries({ ...logs, ...documents })) {
    for (const card of CARDS) {
      if (numberPattern(card.number).test(text)) found.push(`${where}: card number ${card.number}`);
      if (cvvPattern(card.cvv).test(text)) found.push(`${where}: cvv of ${card.number}`);
    }
    for (const token of tokens) if (text.includes(token)) found.push(`${where}: a clear token`);
  }
  t.deepEqual(found, []);
});

test('the checks find a number, a cvv and a token where they are', (t) => {
  t.true(numberPattern('4000000000000010').test('{"n":"4000 0000 0000 0010"}'));
  t.true(cvvPattern('738').test('{"SecurityCode":"738"}'));
  t.true(cvvPattern('738').test('cvv=738'));
  t.false(cvvPattern('738').test('{"pid":17738}'));
});
