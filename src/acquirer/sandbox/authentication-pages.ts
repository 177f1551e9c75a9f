/**
 * What the sandbox's authentication service (authentication.ts) sends to browsers: the script a merchant's page
 * loads, in place of the acquirer's BP.Mpi.3ds20.min.js, and the challenge page it shows in a frame, in place of
 * the issuer's. Kept as text here (not files beside the code) so the build and the tests' compiled copy need no
 * step to carry them.
 *
 * The script keeps the real one's interface (reference 2c and the acquirer's public manual): the page's fields
 * are inputs with the classes `bpmpi_auth`, `bpmpi_accesstoken`, `bpmpi_ordernumber`, `bpmpi_currency`,
 * `bpmpi_totalamount` (cents), `bpmpi_installments`, `bpmpi_paymentmethod` (credit or debit), `bpmpi_cardnumber`,
 * `bpmpi_cardexpirationmonth`, `bpmpi_cardexpirationyear` and `bpmpi_billto_*`; the page defines
 * `bpmpi_config()` returning `{onReady, onSuccess, onFailure, onUnenrolled, onDisabled, onError,
 * onUnsupportedBrand, Environment: "SDB", Debug}` and calls `bpmpi_authenticate()` (and `bpmpi_load()` when it
 * fills the token after the script loaded). It styles only through the DOM's style properties and adds no inline
 * script, so a page whose Content-Security-Policy allows the service's origin for scripts, connections and frames
 * runs it unchanged.
 */

/** The message the challenge frame posts to the page that framed it once the payer answered. */
export const CHALLENGE_FINISHED = 'bpmpi:challenge-finished';

export const AUTHENTICATION_SCRIPT = String.raw`
/* The sandbox's stand-in for the acquirer's 3-D Secure 2 script (BP.Mpi.3ds20.min.js): docs/sandbox.md */
(function () {
  'use strict';
  var FINISHED = '${CHALLENGE_FINISHED}';
  var self = document.currentScript || document.querySelector('script[src*="/Scripts/BP.Mpi.3ds20"]');
  var base = self ? self.src.replace(/\/Scripts\/[^\/?#]*(?:[?#].*)?$/, '') : '';
  var serviceOrigin = base ? new URL(base).origin : '';
  var busy = false;
  /** The service's Status -> the page's callback and the fields it receives (as the acquirer's script gives them). */
  var ANSWERS = {
    success: ['onSuccess', ['Cavv', 'Xid', 'Eci', 'Version', 'ReferenceId']],
    failure: ['onFailure', ['Xid', 'Eci', 'Version', 'ReferenceId']],
    unenrolled: ['onUnenrolled', ['Xid', 'Eci', 'Version', 'ReferenceId']],
    unsupportedBrand: ['onUnsupportedBrand', ['ReturnCode', 'ReturnMessage']],
    error: ['onError', ['Xid', 'Eci', 'ReturnCode', 'ReturnMessage', 'ReferenceId']],
  };

  function settings() {
    try {
      return (typeof window.bpmpi_config === 'function' && window.bpmpi_config()) || {};
    } catch (error) {
      return {};
    }
  }
  function debug(what) {
    if (settings().Debug === true && window.console) console.log('[BP.Mpi sandbox] ' + what);
  }
  function emit(name, payload) {
    debug(name + (payload && payload.ReturnCode ? ' ' + payload.ReturnCode : ''));
    var handler = settings()[name];
    if (typeof handler === 'function') handler(payload);
  }
  function field(name) {
    var element = document.querySelector('.bpmpi_' + name);
    return element && typeof element.value === 'string' ? element.value.trim() : '';
  }
  function problem(code, message) {
    return { Xid: null, Eci: null, ReturnCode: code, ReturnMessage: message, ReferenceId: null };
  }
  function read(response) {
    return response.json().catch(function () {
      return { Status: 'error', ReturnCode: 'MPI503', ReturnMessage: 'Unreadable answer from the service' };
    });
  }
  function post(path, body) {
    return fetch(base + path, {
      method: 'POST',
      mode: 'cors',
      credentials: 'omit',
      headers: { Authorization: 'Bearer ' + field('accesstoken'), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).then(read);
  }
  function unreachable() {
    busy = false;
    emit('onError', problem('MPI503', 'The authentication service could not be reached'));
  }
  function wrongEnvironment() {
    if (settings().Environment === 'SDB') return false;
    emit('onError', problem('MPI400', 'Environment must be "SDB" with the sandbox script'));
    return true;
  }
  function pick(answer, names) {
    var picked = {};
    names.forEach(function (name) {
      picked[name] = answer[name] === undefined ? null : answer[name];
    });
    return picked;
  }

  function load() {
    if (wrongEnvironment()) return;
    if (field('auth') !== 'true') return emit('onReady');
    post('/v2/3ds/check', {}).then(function (answer) {
      if (answer.Status === 'ready') emit('onReady');
      else emit('onError', problem(answer.ReturnCode || 'MPI401', answer.ReturnMessage || 'Access token refused'));
    }, unreachable);
  }

  function authenticate() {
    if (busy || wrongEnvironment()) return;
    if (field('auth') !== 'true') return emit('onDisabled');
    busy = true;
    post('/v2/3ds/authenticate', {
      OrderNumber: field('ordernumber'),
      Currency: field('currency'),
      TotalAmount: field('totalamount'),
      Installments: field('installments'),
      PaymentMethod: field('paymentmethod'),
      CardNumber: field('cardnumber').replace(/[\s-]/g, ''),
      CardExpirationMonth: field('cardexpirationmonth'),
      CardExpirationYear: field('cardexpirationyear'),
      BillTo: {
        CustomerId: field('billto_customerid'),
        Name: field('billto_contactname') || field('billto_name'),
        Email: field('billto_email'),
        PhoneNumber: field('billto_phonenumber'),
        ZipCode: field('billto_zipcode'),
        Country: field('billto_country'),
      },
    }).then(settle, unreachable);
  }

  function settle(answer) {
    if (answer.Status === 'challenge') return challenge(answer.TransactionId);
    busy = false;
    var outcome = Object.prototype.hasOwnProperty.call(ANSWERS, answer.Status) ? ANSWERS[answer.Status] : ANSWERS.error;
    emit(outcome[0], pick(answer, outcome[1]));
  }

  /** The issuer's challenge in a frame over the page, phone-sized; the frame tells when the payer answered. */
  function challenge(transactionId) {
    var overlay = document.createElement('div');
    overlay.className = 'bpmpi_challenge';
    var frame = document.createElement('iframe');
    frame.title = 'Autenticação do seu banco';
    frame.src = base + '/challenge/' + encodeURIComponent(transactionId);
    var overlayStyle = { position: 'fixed', top: '0', right: '0', bottom: '0', left: '0', zIndex: '2147483647',
      display: 'flex', alignItems: 'center', justifyContent: 'center', padding: '8px', boxSizing: 'border-box',
      background: 'rgba(0, 0, 0, 0.6)' };
    var frameStyle = { width: '100%', maxWidth: '390px', height: '100%', maxHeight: '480px', border: '0',
      borderRadius: '8px', background: '#fff' };
    Object.keys(overlayStyle).forEach(function (name) { overlay.style[name] = overlayStyle[name]; });
    Object.keys(frameStyle).forEach(function (name) { frame.style[name] = frameStyle[name]; });
    // Keyboard and screen reader go to the bank's question (a cross-origin frame may not autofocus its input).
    frame.addEventListener('load', function () { frame.focus(); }, { once: true });
    overlay.appendChild(frame);
    document.body.appendChild(overlay);
    debug('challenge shown');
    function finished(event) {
      var data = event.data;
      if (event.origin !== serviceOrigin || event.source !== frame.contentWindow) return;
      if (!data || data.type !== FINISHED || data.transactionId !== transactionId) return;
      window.removeEventListener('message', finished);
      overlay.remove();
      fetch(base + '/v2/3ds/transactions/' + encodeURIComponent(transactionId), { mode: 'cors', credentials: 'omit' })
        .then(read)
        .then(settle, unreachable);
    }
    window.addEventListener('message', finished);
  }

  window.bpmpi_load = load;
  window.bpmpi_authenticate = authenticate;
  // A page that wrote its token before loading the script is ready at once; one filling it later calls bpmpi_load.
  if (field('accesstoken')) load();
})();
`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const PAGE_STYLE = `
  body { font-family: system-ui, sans-serif; margin: 0; padding: 20px; color: #1a1a1a; background: #fff; }
  h1 { font-size: 1.2rem; margin: 0 0 12px; }
  p { margin: 0 0 12px; line-height: 1.4; }
  label { display: block; font-weight: 600; margin-bottom: 4px; }
  input { font-size: 1.2rem; width: 100%; box-sizing: border-box; padding: 10px; letter-spacing: 0.2em; }
  .buttons { display: flex; gap: 8px; margin-top: 16px; }
  button { flex: 1; font-size: 1rem; padding: 12px; border-radius: 6px; border: 1px solid #0b5394; }
  button[value="confirm"] { background: #0b5394; color: #fff; }
  button[value="cancel"] { background: #fff; color: #0b5394; }
  .sandbox { font-size: 0.9rem; color: #595959; }`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The issuer's question, as the sandbox asks it: the code the bank "sent" (docs/sandbox.md gives it). */
export function challengePage(challenge: { amountCents: number; last4: string; code: string }): string {
  const amount = (challenge.amountCents / 100).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });
  return page(
    'Confirme que é você',
    `<h1>Confirme que é você</h1>
<p>Seu banco enviou um código para confirmar a compra de <strong>${escapeHtml(amount)}</strong> com o cartão final
<strong>${escapeHtml(challenge.last4)}</strong>.</p>
<form method="post">
<label for="code">Código de verificação</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="12">
<div class="buttons">
<button type="submit" name="action" value="confirm">Confirmar</button>
<button type="submit" name="action" value="cancel">Cancelar</button>
</div>
</form>
<p class="sandbox">Ambiente de testes: o código é ${escapeHtml(challenge.code)}.</p>`,
  );
}

/** After the payer answered (or for a challenge no longer open): tells the framing page, which reads the result. */
export function challengeFinishedPage(transactionId: string): string {
  const message = JSON.stringify({ type: CHALLENGE_FINISHED, transactionId }).replace(/</g, '\\u003c');
  return page(
    'Autenticação concluída',
    `<p>Autenticação concluída. Voltando à loja…</p>
<script>parent.postMessage(${message}, '*');</script>`,
  );
}

export function challengeNotFoundPage(): string {
  return page('Autenticação não encontrada', '<p>Esta autenticação não existe ou não está mais aberta.</p>');
}
