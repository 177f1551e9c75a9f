/**
 * Hostile bodies of a card save: each is a 400 naming the field at fault, as a pre-capture's card is, before the
 * acquirer is called (it points nowhere here: a body that got past the checks would answer 502) and with nothing kept.
 */
import '../helpers/env';
import crypto from 'node:crypto';
import test from 'ava';
import { pointAcquirerNowhere } from '../helpers/env';
import { UNDECRYPTABLE_CARD } from '../../src/cards';
import { CustomerCardModel } from '../../src/customers/model';
import { useAppWithMerchant } from '../helpers/app';
import { clearTestCard, encryptedTestCard } from '../helpers/cards';
import { callJson } from '../helpers/http';
import { asMerchant, cardsPath, newCustomer } from './helpers';

pointAcquirerNowhere();
const env = useAppWithMerchant();

/** A card encrypted with a key that is not ours: it must read as any other unreadable card. */
function encryptedWithAnotherKey(): string {
  const { publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const plain = Buffer.from(JSON.stringify(clearTestCard()));
  return crypto
    .publicEncrypt({ key: publicKey, padding: crypto.constants.RSA_PKCS1_PADDING }, plain)
    .toString('base64');
}

const year = new Date().getUTCFullYear();
const CASES: [what: string, body: () => unknown, answer: Record<string, string[]>][] = [
  ['no body', () => ({}), { encrypted_card: ['This field is required.'] }],
  ['a number', () => ({ encrypted_card: 4000000000000010 }), { encrypted_card: ['Not a valid string.'] }],
  ['null', () => ({ encrypted_card: null }), { encrypted_card: ['Not a valid string.'] }],
  ['an operator', () => ({ encrypted_card: { $gt: '' } }), { encrypted_card: ['Not a valid string.'] }],
  [
    'a huge string',
    () => ({ encrypted_card: 'A'.repeat(5000) }),
    { encrypted_card: ['Ensure this field has no more than 2048 characters.'] },
  ],
  ['a list', () => [encryptedTestCard()], { non_field_errors: ['Expected a JSON object.'] }],
  ['not base64', () => ({ encrypted_card: 'not base64!' }), { encrypted_card: [UNDECRYPTABLE_CARD] }],
  [
    'the card in the clear',
    () => ({ encrypted_card: JSON.stringify(clearTestCard()) }),
    { encrypted_card: [UNDECRYPTABLE_CARD] },
  ],
  ['another key', () => ({ encrypted_card: encryptedWithAnotherKey() }), { encrypted_card: [UNDECRYPTABLE_CARD] }],
  [
    'an unknown field beside a good card',
    () => ({ encrypted_card: encryptedTestCard(), card_number: '4000000000000010' }),
    { card_number: ['Unknown field.'] },
  ],
  [
    'a luhn-invalid number',
    () => ({ encrypted_card: encryptedTestCard({ number: '4000000000000011' }) }),
    {
      number: ['Invalid card number.'],
    },
  ],
  [
    'a brand we do not accept',
    () => ({ encrypted_card: encryptedTestCard({ number: '9000000000000001' }) }),
    {
      number: ['This card brand is not accepted.'],
    },
  ],
  [
    'an expired card',
    () => ({ encrypted_card: encryptedTestCard({ expYear: year - 1 }) }),
    {
      expiry: ['The card has expired.'],
    },
  ],
  [
    'a cvv of two digits',
    () => ({ encrypted_card: encryptedTestCard({ cvv: '12' }) }),
    {
      cvv: ['The security code must be a string of 3 digits.'],
    },
  ],
  [
    'a holder too long',
    () => ({ encrypted_card: encryptedTestCard({ holder: 'H'.repeat(26) }) }),
    {
      holder: ['The card holder name is required (at most 25 characters).'],
    },
  ],
];

for (const [what, body, answer] of CASES) {
  test(`a card save with ${what} is a 400 naming it, and keeps nothing`, async (t) => {
    const customer = await newCustomer(env.app, env.merchant);
    const res = await callJson(env.app, 'POST', cardsPath(customer.id), asMerchant(env.merchant), body());
    t.is(res.status, 400, res.text.slice(0, 300));
    t.deepEqual(res.body, answer);
    t.is(await CustomerCardModel.countDocuments({ customerId: customer.id }), 0);
  });
}

test('a good body for an unknown customer is 404, and a good body otherwise reaches the acquirer', async (t) => {
  const body = { encrypted_card: encryptedTestCard() };
  const unknown = await callJson(
    env.app,
    'POST',
    cardsPath('cus_000000000000000000000000'),
    asMerchant(env.merchant),
    body,
  );
  t.is(unknown.status, 404);
  const customer = await newCustomer(env.app, env.merchant);
  // The acquirer points nowhere here: the one body that passes every check answers 502, and keeps nothing either.
  const unreachable = await callJson(env.app, 'POST', cardsPath(customer.id), asMerchant(env.merchant), body);
  t.is(unreachable.status, 502);
  t.is(await CustomerCardModel.countDocuments({ customerId: customer.id }), 0);
});
