import '../helpers/env';
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { Browser, Locator } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import type { TestApp } from '../helpers/app';
import type { TestMerchant } from '../helpers/identity';
import { ROOT } from '../helpers/processes';
import { PaymentLinkModel } from '../../src/payment-links/model';
import { createLink, nextYear, startLinkApp, stopLinkApp, VALID_CPF } from './helpers';

const SCREENSHOTS = path.join(ROOT, '.data', 'screenshots');

let app: TestApp;
let browser: Browser;
let merchant: TestMerchant;

test.before(async () => {
  ({ app, merchant } = await startLinkApp('Floricultura Ipê LTDA'));
  browser = await launchChromium();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
});
test.after.always(async () => {
  await browser?.close();
  await stopLinkApp(app);
});

/** A phone-sized screen. */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };

/** The page under our origin: payment_link_url is built on PUBLIC_BASE_URL, the test app listens elsewhere. */
function pageUrl(link: { payment_link_url: string }): string {
  return `${app.url}${new URL(link.payment_link_url).pathname}`;
}

test('a payer goes through the three steps to a paid link, and a second visit shows it paid', async (t) => {
  const { body: link } = await createLink(app.url, merchant, {
    value: 15990,
    description: 'Buquê de rosas',
    payer_name: 'Carla',
    number_of_installments: 2,
  });
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (msg) => {
    // The 400s of the field errors this test provokes on purpose are logged by the browser too.
    if (msg.type() === 'error' && !/status of 400/.test(msg.text())) consoleErrors.push(msg.text());
  });
  await page.goto(pageUrl(link));

  await page.getByRole('heading', { name: 'Quem está pagando?' }).waitFor();
  t.is(await page.locator('#merchant-name').textContent(), 'Floricultura Ipê LTDA');
  t.regex((await page.locator('#amount').textContent())!, /159,90/);
  t.is(await page.getByLabel('Nome', { exact: true }).inputValue(), 'Carla');

  // Step 1, by keyboard: a wrong CPF shows its error in place, then the right one goes through.
  await page.getByLabel('CPF ou CNPJ').fill('111.111.111-12');
  await page.getByLabel('CPF ou CNPJ').press('Enter');
  await page.locator('#document-error').filter({ hasText: /CPF/ }).waitFor();
  t.is(await page.getByLabel('CPF ou CNPJ').getAttribute('aria-invalid'), 'true');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'checkout-payer-error.png'), fullPage: true });
  await page.getByLabel('CPF ou CNPJ').fill(VALID_CPF);
  await page.getByLabel('CPF ou CNPJ').press('Enter');

  // Step 2: a short CEP is refused in place.
  await page.getByRole('heading', { name: 'Endereço' }).waitFor();
  await page.getByLabel('CEP').fill('123');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.locator('#cep-error').filter({ hasText: 'O CEP tem 8 dígitos.' }).waitFor();
  await page.getByLabel('CEP').fill('01310-100');
  await page.getByLabel('Rua').fill('Avenida Paulista');
  await page.getByLabel('Número', { exact: true }).fill('1000');
  await page.getByLabel('Complemento (opcional)').fill('Sala 5');
  await page.getByLabel('Bairro').fill('Bela Vista');
  await page.getByLabel('Cidade').fill('São Paulo');
  await page.getByLabel('UF').fill('SP');
  await page.getByLabel('Ponto de referência (opcional)').fill('Perto do MASP');
  await page.getByRole('button', { name: 'Continuar' }).click();

  // Step 3: a mistyped card number is caught in place; the good one pays.
  await page.getByRole('heading', { name: 'Pagamento', exact: true }).waitFor();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'checkout-card-step.png'), fullPage: true });
  await page.getByLabel('Nome impresso no cartão').fill('CARLA M SOUZA');
  await page.getByLabel('Número do cartão').fill('4000 0000 0000 0011');
  await page.getByLabel('Validade (MM/AA)').fill(`12/${String(nextYear()).slice(2)}`);
  await page.getByLabel('CVV').fill('123');
  await page.getByRole('button', { name: /Pagar/ }).click();
  await page
    .locator('#card-number-error')
    .filter({ hasText: /inválido/ })
    .waitFor();
  await page.getByLabel('Número do cartão').fill('4000 0000 0000 0010');
  await page.getByLabel('CVV').press('Enter');

  await page.getByRole('heading', { name: 'Pagamento aprovado' }).waitFor();
  const receipt = await page.locator('#receipt-details').textContent();
  t.regex(receipt!, /final 0010/);
  t.regex(receipt!, /159,90/);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'checkout-receipt.png'), fullPage: true });

  const stored = await PaymentLinkModel.findById(link.id).lean();
  t.is(stored!.status, 2);
  t.like(stored!.address, { cep: '01310100', city: 'São Paulo', reference: 'Perto do MASP' });
  // The receipt shows the issuer's authorization code, on one line; the 20-digit transaction id does not fit a phone
  // and is left out there.
  const { authorizationCode, tid } = stored!.payment!;
  t.regex(authorizationCode!, /^\d{6}$/);
  t.is(await page.locator('#receipt-authorization').textContent(), authorizationCode!);
  t.true(await page.locator('#receipt-authorization').isVisible());
  t.is(await lineCount(page.locator('#receipt-authorization')), 1);
  t.regex(tid!, /^\d{20}$/);
  t.false(await page.locator('#receipt-tid').isVisible());

  // A second visit shows the link paid, with its receipt, and no form.
  const second = await context.newPage();
  await second.goto(pageUrl(link));
  await second.getByRole('heading', { name: 'Pagamento aprovado' }).waitFor();
  t.false(await second.locator('#card-form').isVisible());
  t.false(await second.locator('#payer-form').isVisible());
  t.deepEqual(consoleErrors, []);
  await context.close();

  // On a wider screen the transaction id fits on one line and is shown beside the authorization code.
  const wide = await browser.newContext({ viewport: { width: 1024, height: 800 } });
  const desktop = await wide.newPage();
  await desktop.goto(pageUrl(link));
  await desktop.getByRole('heading', { name: 'Pagamento aprovado' }).waitFor();
  t.is(await desktop.locator('#receipt-authorization').textContent(), authorizationCode!);
  t.true(await desktop.locator('#receipt-tid').isVisible());
  t.is(await desktop.locator('#receipt-tid').textContent(), tid);
  t.is(await lineCount(desktop.locator('#receipt-tid')), 1);
  await wide.close();
});

/** Text as the page writes it, its no-break spaces (Intl's after R$) read as spaces. */
const spaced = (text: string) => text.replace(/\s/g, ' ');

/** How many lines of text an element takes on screen. */
async function lineCount(locator: Locator): Promise<number> {
  // Runs in the page: typed loosely, as this project compiles without the DOM library.
  return locator.evaluate((element: any) => {
    const range = element.ownerDocument.createRange();
    range.selectNodeContents(element);
    return new Set(Array.from(range.getClientRects() as ArrayLike<{ top: number }>, (rect) => Math.round(rect.top)))
      .size;
  });
}

test('a denied card shows the denial in Portuguese and lets the payer try again', async (t) => {
  // The merchant sent a valid CNPJ at create: the page shows it masked and the payer keeps it.
  const { body: link } = await createLink(app.url, merchant, {
    value: 500,
    payer_name: 'Davi',
    document: '11.222.333/0001-81',
  });
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(pageUrl(link));
  await page.getByRole('heading', { name: 'Quem está pagando?' }).waitFor();
  t.regex((await page.getByLabel('CPF ou CNPJ').getAttribute('placeholder'))!, /\*\*\.222\.\*\*\*/);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.getByLabel('CEP').fill('20040002');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.getByLabel('Nome impresso no cartão').fill('DAVI');
  // The sandbox declines a card ending in 9 with 51 "Insufficient Funds": the payer reads it in Portuguese.
  await page.getByLabel('Número do cartão').fill('4000000000000069');
  await page.getByLabel('Validade (MM/AA)').fill(`01/${nextYear()}`);
  await page.getByLabel('CVV').fill('321');
  await page.getByRole('button', { name: /Pagar/ }).click();
  const formError = page.locator('#card-form [data-error="form"]');
  await formError.filter({ hasText: /recusado/ }).waitFor();
  t.is(await formError.textContent(), 'Pagamento recusado. Saldo ou limite insuficiente. Use outro cartão.');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'checkout-denied.png'), fullPage: true });
  t.true(await page.locator('#card-form').isVisible());
  t.is((await PaymentLinkModel.findById(link.id).lean())!.status, 1);

  // Another card, declined with the generic 05: the generic Portuguese text, never the acquirer's English.
  await page.getByLabel('Número do cartão').fill('4000000000000002');
  await page.getByRole('button', { name: /Pagar/ }).click();
  await formError.filter({ hasText: /não autorizou/ }).waitFor();
  t.is(
    await formError.textContent(),
    'Pagamento recusado. O banco emissor não autorizou o pagamento. Confira os dados ou use outro cartão.',
  );
  t.notRegex(await page.locator('body').innerText(), /Insufficient|Not Authorized|Funds/i);
  await context.close();
});

test('the card number is grouped as typed, the caret stays in place, and the grouped number pays', async (t) => {
  const { body: link } = await createLink(app.url, merchant, {
    value: 2500,
    payer_name: 'Edu',
    document: '11.222.333/0001-81',
  });
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(pageUrl(link));
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.getByLabel('CEP').fill('20040002');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.getByLabel('Nome impresso no cartão').fill('EDU');

  const number = page.getByLabel('Número do cartão');
  // Runs in the page: typed loosely, as this project compiles without the DOM library.
  const caret = () => number.evaluate((input: any) => input.selectionStart as number);
  const placeCaret = (place: number) =>
    number.evaluate((input: any, at: number) => input.setSelectionRange(at, at), place);

  await number.pressSequentially('4000000000000010');
  t.is(await number.inputValue(), '4000 0000 0000 0010');

  // A digit typed in the middle stays before the caret, even when it pushes the groups along.
  await placeCaret(6);
  await page.keyboard.type('9');
  t.is(await number.inputValue(), '4000 0900 0000 0001 0');
  t.is(await caret(), 7);
  // Backspace just after a space takes the digit before it, and the caret goes back with it.
  await placeCaret(5);
  await page.keyboard.press('Backspace');
  t.is(await number.inputValue(), '4000 9000 0000 0010');
  t.is(await caret(), 3);
  // A digit typed at the end of a group lands in the next one, with the caret after it rather than before the space.
  await placeCaret(4);
  await page.keyboard.type('5');
  t.is(await number.inputValue(), '4000 5900 0000 0001 0');
  t.is(await caret(), 6);

  // Pasted with dashes, or an American Express number (4-6-5).
  await number.fill('4000-0000-0000-0010');
  t.is(await number.inputValue(), '4000 0000 0000 0010');
  await number.fill('');
  await number.pressSequentially('378282246310005');
  t.is(await number.inputValue(), '3782 822463 10005');

  // The grouped number pays: the server takes digits only, so no space reached the encrypted card.
  await number.fill('');
  await number.pressSequentially('4000000000000010');
  t.is(await number.inputValue(), '4000 0000 0000 0010');
  await page.getByLabel('Validade (MM/AA)').fill(`12/${String(nextYear()).slice(2)}`);
  await page.getByLabel('CVV').fill('123');
  await page.getByRole('button', { name: /Pagar/ }).click();
  await page.getByRole('heading', { name: 'Pagamento aprovado' }).waitFor();
  t.regex((await page.locator('#receipt-details').textContent())!, /final 0010/);
  t.is((await PaymentLinkModel.findById(link.id).lean())!.status, 2);
  await context.close();
});

test('installments chosen on a 360 px phone: labels in reais, the total with interest, the receipt', async (t) => {
  const { body: link } = await createLink(app.url, merchant, {
    value: 10_000,
    payer_name: 'Fábio',
    document: VALID_CPF,
    number_of_installments: 6,
    free_installments: 2,
    interest_rate_monthly: 199,
  });
  const context = await browser.newContext({ ...PHONE, viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto(pageUrl(link));
  await page.getByRole('heading', { name: 'Quem está pagando?' }).waitFor();
  t.regex((await page.locator('#meta').textContent())!, /Em até 6x/);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.getByLabel('CEP').fill('20040002');
  await page.getByRole('button', { name: 'Continuar' }).click();
  const choice = page.getByLabel('Parcelas');
  await choice.locator('option').nth(5).waitFor({ state: 'attached' });
  // The page writes amounts as Intl does (a no-break space after R$).
  const labels = (await choice.locator('option').allTextContents()).map(spaced);
  t.is(labels[0], '1x de R$ 100,00 sem juros');
  t.is(labels[1], '2x de R$ 50,00 sem juros');
  t.regex(labels[3], /^4x de R\$ 26,\d\d com juros$/);
  // The most interest-free installments come chosen; the pay button and the line under the choice show the total.
  t.is(await choice.inputValue(), '2');
  const payButton = async () => spaced((await page.getByRole('button', { name: /Pagar/ }).textContent())!);
  const totalLine = async () => spaced((await page.locator('#installments-total').textContent())!);
  t.is(await payButton(), 'Pagar R$ 100,00');
  t.is(await totalLine(), 'Total: R$ 100,00, sem juros');
  await choice.focus();
  await choice.selectOption('4');
  const [, total, interest] = /^Total: (R\$ 10\d,\d\d) \((R\$ \d,\d\d) de juros\)$/.exec(await totalLine())!;
  t.is(await payButton(), `Pagar ${total}`);
  t.is(Number(total.replace(/\D/g, '')) - 10_000, Number(interest.replace(/\D/g, '')));
  t.true(await page.evaluate('document.documentElement.scrollWidth <= 360'));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'checkout-installments-360.png'), fullPage: true });

  await page.getByLabel('Nome impresso no cartão').fill('FABIO');
  await page.getByLabel('Número do cartão').fill('4000 0000 0000 0010');
  await page.getByLabel('Validade (MM/AA)').fill(`12/${String(nextYear()).slice(2)}`);
  await page.getByLabel('CVV').fill('123');
  await page.getByRole('button', { name: /Pagar/ }).click();
  await page.getByRole('heading', { name: 'Pagamento aprovado' }).waitFor();
  const receipt = spaced((await page.locator('#receipt-details').textContent())!);
  t.regex(receipt, /4x de R\$ 26,\d\d com juros/);
  t.true(receipt.includes(`Total pago${total}`));
  const stored = await PaymentLinkModel.findById(link.id).lean();
  t.like(stored!.payment, { installments: 4, interestFree: false });
  t.is(`R$ ${(stored!.payment!.total! / 100).toFixed(2).replace('.', ',')}`, total);
  await context.close();
});

test('unknown and expired links show a clear state', async (t) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const missing = await page.goto(`${app.url}/checkout/00000000-0000-4000-8000-000000000000`);
  t.is(missing!.status(), 404);
  await page
    .locator('#status-text')
    .filter({ hasText: /não encontrado/ })
    .waitFor();
  t.false(await page.locator('#payer-form').isVisible());

  const { body: link } = await createLink(app.url, merchant, { value: 100 });
  await PaymentLinkModel.updateOne({ _id: link.id }, { $set: { expiresAt: new Date(Date.now() - 60_000) } });
  await page.goto(pageUrl(link));
  await page
    .locator('#status-text')
    .filter({ hasText: /expirou/ })
    .waitFor();
  t.false(await page.locator('#payer-form').isVisible());
  await page.screenshot({ path: path.join(SCREENSHOTS, 'checkout-expired.png'), fullPage: true });
  await context.close();
});

test('the expiry gets its slash as it is typed, as the card number gets its spaces', async (t) => {
  const { body: link } = await createLink(app.url, merchant, { value: 3100, payer_name: 'Gil', document: VALID_CPF });
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(pageUrl(link));
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.getByLabel('CEP').fill('20040002');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.getByLabel('Nome impresso no cartão').fill('GIL');
  await page.getByLabel('Número do cartão').pressSequentially('4000000000000010');

  const expiry = page.getByLabel('Validade (MM/AA)');
  // Runs in the page: typed loosely, as this project compiles without the DOM library.
  const caret = () => expiry.evaluate((input: any) => input.selectionStart as number);
  const year = String(nextYear()).slice(2);
  await expiry.pressSequentially('1');
  t.is(await expiry.inputValue(), '1');
  await expiry.pressSequentially('2');
  t.is(await expiry.inputValue(), '12/', 'the month complete, the slash comes, the caret after it');
  t.is(await caret(), 3);
  await expiry.pressSequentially(year);
  t.is(await expiry.inputValue(), `12/${year}`);
  // Backspace takes the year, then the slash with the month's last digit, as the card number's spaces go.
  await expiry.press('Backspace');
  await expiry.press('Backspace');
  t.is(await expiry.inputValue(), '12/');
  await expiry.press('Backspace');
  t.is(await expiry.inputValue(), '1');
  // A month that can only be one digit gets its 0: 4 is April, and 1 followed by a slash January.
  await expiry.fill('');
  await expiry.pressSequentially('4');
  t.is(await expiry.inputValue(), '04/');
  await expiry.fill('');
  await expiry.pressSequentially(`1/${year}`);
  t.is(await expiry.inputValue(), `01/${year}`);
  // Pasted or autofilled whole, with a four-digit year or none of the slash.
  await expiry.fill(`12/${nextYear()}`);
  t.is(await expiry.inputValue(), `12/${nextYear()}`);
  await expiry.fill(`12${year}`);
  t.is(await expiry.inputValue(), `12/${year}`);

  // The typed expiry pays.
  await expiry.fill('');
  await expiry.pressSequentially(`12${year}`);
  await page.getByLabel('CVV').fill('123');
  await page.getByRole('button', { name: /Pagar/ }).click();
  await page.getByRole('heading', { name: 'Pagamento aprovado' }).waitFor();
  t.is((await PaymentLinkModel.findById(link.id).lean())!.status, 2);
  await context.close();
});

test('on a 390 px phone the installments select shows each option whole, its total under it', async (t) => {
  const { body: link } = await createLink(app.url, merchant, {
    value: 1_234_567,
    payer_name: 'Hana',
    document: VALID_CPF,
    number_of_installments: 12,
    free_installments: 3,
    interest_rate_monthly: 199,
  });
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(pageUrl(link));
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.getByLabel('CEP').fill('20040002');
  await page.getByRole('button', { name: 'Continuar' }).click();
  const choice = page.getByLabel('Parcelas');
  await choice.locator('option').nth(11).waitFor({ state: 'attached' });

  // The closed select shows the chosen option's text on one line, cut where its box ends: each text must fit the
  // box inside its padding (measured in the select's own font).
  // Runs in the page: typed loosely, as this project compiles without the DOM library.
  const fits = () =>
    choice.evaluate((select: any) => {
      const { document, getComputedStyle } = globalThis as any;
      const style = getComputedStyle(select);
      const pen = document.createElement('canvas').getContext('2d');
      pen.font = style.font;
      const text: string = select.options[select.selectedIndex].text;
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { room, text, width: pen.measureText(text).width as number };
    });
  const labels = (await choice.locator('option').allTextContents()).map(spaced);
  t.is(labels.length, 12);
  for (const [index, label] of labels.entries()) {
    await choice.selectOption(String(index + 1));
    const { room, text, width } = await fits();
    t.is(spaced(text), label);
    t.true(width <= room, `"${label}" is ${Math.ceil(width)} px wide in a ${room} px select`);
  }
  // What the option no longer says, the line under the select does: the chosen option's total and its interest.
  for (const index of labels.keys()) {
    await choice.selectOption(String(index + 1));
    const total = spaced(await page.evaluate("document.getElementById('installments-total')?.textContent ?? ''"));
    t.regex(
      total,
      index < 3 ? /^Total: R\$ 12\.345,67, sem juros$/ : /^Total: R\$ [\d.]+,\d\d \(R\$ [\d.]+,\d\d de juros\)$/,
    );
  }
  t.regex(labels[11], /^12x de R\$ 1\.\d{3},\d\d com juros$/);
  t.true(await page.evaluate('document.documentElement.scrollWidth <= 390'));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'checkout-installments-390.png'), fullPage: true });
  await context.close();
});
