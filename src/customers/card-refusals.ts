/**
 * What a merchant reads when Zero Auth refuses a card it tried to save: the issuer's code (ABECS, as the acquirer
 * documents them, and those its sandbox answers) in words, with what to do next. Unlike the checkout's text for a
 * payer (src/checkout/payer-messages.ts), this one may say a card was reported lost or stolen: it is told to an
 * authenticated merchant, who gets the raw code beside it anyway.
 */

const ASK_ANOTHER_CARD = 'Ask the customer for another card.';
const TRY_LATER = 'Nothing was charged; try saving it again in a few minutes.';

const BY_RETURN_CODE: Readonly<Record<string, string>> = {
  '05': `The issuing bank did not authorise the card, without saying why. ${ASK_ANOTHER_CARD}`,
  '14': `The card number is not valid at the issuing bank. ${ASK_ANOTHER_CARD}`,
  '41': `The card was reported lost: do not try it again. ${ASK_ANOTHER_CARD}`,
  '43': `The card was reported stolen: do not try it again. ${ASK_ANOTHER_CARD}`,
  '51': `The issuing bank refused the card for lack of funds or limit. ${ASK_ANOTHER_CARD}`,
  '54': `The card has expired. ${ASK_ANOTHER_CARD}`,
  '57': `The issuing bank does not allow this card to be used here (or it has expired). ${ASK_ANOTHER_CARD}`,
  '59': `The issuing bank suspects fraud on this card: do not try it again. ${ASK_ANOTHER_CARD}`,
  '61': `The card is over its limit. ${ASK_ANOTHER_CARD}`,
  '62': `The card is blocked by its bank; the customer can unblock it in the bank's app. ${ASK_ANOTHER_CARD}`,
  '63': 'The security code (CVV) is wrong. Ask the customer to check it and save the card again.',
  N7: 'The security code (CVV) is wrong. Ask the customer to check it and save the card again.',
  '70': `The issuing bank reports a problem with this card. ${ASK_ANOTHER_CARD}`,
  '77': `The card was cancelled by its bank. ${ASK_ANOTHER_CARD}`,
  '78': `The card is blocked (new or locked); the customer can unblock it in the bank's app. ${ASK_ANOTHER_CARD}`,
  '91': `The issuing bank did not answer. ${TRY_LATER}`,
  '96': `The card network failed to reach the issuing bank. ${TRY_LATER}`,
  '98': `The check timed out. ${TRY_LATER}`,
  '99': `The check timed out at the issuing bank. ${TRY_LATER}`,
};

/** The refusal in words: the text of its code, or, for a code we do not know, the acquirer's own message with it. */
export function cardRefusalInWords(returnCode: string, returnMessage: string): string {
  const raw = String(returnCode ?? '')
    .trim()
    .toUpperCase();
  const code = /^\d$/.test(raw) ? `0${raw}` : raw;
  if (Object.hasOwn(BY_RETURN_CODE, code)) return `Zero Auth refused the card: ${BY_RETURN_CODE[code]}`;
  const said = returnMessage ? ` ("${returnMessage}")` : '';
  return `Zero Auth refused the card: the issuing bank answered code ${code || 'none'}${said}. ${ASK_ANOTHER_CARD}`;
}
