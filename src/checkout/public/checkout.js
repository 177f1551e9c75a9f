/*
 * The payer's journey: payer -> address -> card -> receipt, calling the public checkout API.
 * The card is encrypted here, in the browser, with the service's RSA public key (RSAES-PKCS1-v1_5,
 * node-forge, served from our origin); the clear card never leaves the page.
 */
(function () {
  'use strict';

  // The page lives at <base>/checkout/<guid>; <base> is empty unless PUBLIC_BASE_URL has a path.
  var marker = location.pathname.lastIndexOf('/checkout/');
  var base = marker > 0 ? location.pathname.slice(0, marker) : '';
  var guid = decodeURIComponent(location.pathname.slice(marker + '/checkout/'.length).split('/')[0] || '');
  var api = base + '/api/v1/checkout-links/' + encodeURIComponent(guid);
  var checkout = null;
  var STEPS = ['payer', 'address', 'card'];

  function $(id) {
    return document.getElementById(id);
  }

  var money = window.PixView.money;

  function dateTime(iso) {
    return new Date(iso).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' });
  }

  function setStatus(text, tone) {
    var box = $('status-box');
    $('status-text').textContent = text || '';
    box.className = 'status-box ' + (text ? tone || '' : 'idle');
  }

  function request(method, path, body) {
    return fetch(api + path, {
      method: method,
      headers: body
        ? { 'content-type': 'application/json', accept: 'application/json' }
        : { accept: 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
      credentials: 'omit',
    }).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try {
          data = text ? JSON.parse(text) : null;
        } catch (e) {
          data = null;
        }
        return { status: res.status, data: data, retryAfter: res.headers.get('retry-after') };
      });
    });
  }

  function showSummary() {
    $('summary').hidden = false;
    $('merchant-name').textContent = checkout.merchantCompanyName;
    $('amount').textContent = money(checkout.amount);
    $('description').textContent = checkout.description || '';
    var installments = checkout.installments > 1 ? 'Em até ' + checkout.installments + 'x · ' : 'À vista · ';
    $('meta').textContent = installments + 'Válido até ' + dateTime(checkout.expiresAt);
    showChosenTotal();
  }

  /** The options the link offers (GET .../installments), loaded once the payer reaches the card step. */
  var installmentOptions = null;

  function chosenOption() {
    var chosen = Number($('installments').value);
    return (installmentOptions || []).filter(function (option) {
      return option.installments === chosen;
    })[0];
  }

  function showChosenTotal() {
    var option = chosenOption();
    $('pay-button').textContent = 'Pagar ' + money(option ? option.total : checkout.amount);
    $('installments-total').textContent = !option
      ? ''
      : option.interest_free
        ? 'Total: ' + money(option.total) + ', sem juros'
        : 'Total: ' + money(option.total) + ' (' + money(option.total - checkout.amount) + ' de juros)';
  }

  /**
   * An option as the select shows it: "4x de R$ 26,26 com juros". Short enough to be read whole in the closed
   * select of a phone (the API's label adds the total, which would be cut off there): the chosen option's total
   * is said under the select and on the pay button.
   */
  function optionText(option) {
    return (
      option.installments +
      'x de ' +
      money(option.installment_value) +
      (option.interest_free ? ' sem juros' : ' com juros')
    );
  }

  /**
   * Fills the installments choice: each option in Portuguese (optionText); chosen at first, the most
   * interest-free installments (what the link charged before the payer could choose).
   */
  function loadInstallments() {
    if (installmentOptions) return;
    request('GET', '/installments').then(function (res) {
      if (res.status !== 200 || !res.data) return;
      installmentOptions = res.data.options;
      var select = $('installments');
      select.textContent = '';
      var preferred = 1;
      installmentOptions.forEach(function (option) {
        var item = document.createElement('option');
        item.value = String(option.installments);
        item.textContent = optionText(option);
        select.appendChild(item);
        if (option.interest_free) preferred = option.installments;
      });
      select.value = String(preferred);
      $('installments-field').hidden = installmentOptions.length < 2;
      showChosenTotal();
    });
  }

  function hideAll() {
    STEPS.forEach(function (step) {
      document.querySelector('form[data-step="' + step + '"]').hidden = true;
    });
    $('receipt').hidden = true;
    $('steps').hidden = true;
  }

  function showStep(step) {
    hideAll();
    setStatus('');
    $('steps').hidden = false;
    var index = STEPS.indexOf(step);
    Array.prototype.forEach.call(document.querySelectorAll('#steps li'), function (li, i) {
      li.className = i === index ? 'current' : i < index ? 'done' : '';
      if (i === index) li.setAttribute('aria-current', 'step');
      else li.removeAttribute('aria-current');
    });
    var form = document.querySelector('form[data-step="' + step + '"]');
    if (step === 'card') {
      loadInstallments();
      showMethod();
    } else {
      clearTimeout(pixPoll);
      pixTick();
    }
    form.hidden = false;
    form.querySelector('h1').focus();
  }

  function clearErrors(form) {
    Array.prototype.forEach.call(form.querySelectorAll('[data-error]'), function (el) {
      el.textContent = '';
    });
    Array.prototype.forEach.call(form.querySelectorAll('input'), function (input) {
      input.removeAttribute('aria-invalid');
    });
  }

  /** The payer reads Portuguese: each field the API can name gets a Portuguese message, never the API's English. */
  var MESSAGES = {
    'payer-form': {
      payer_name: 'Informe o nome (até 20 caracteres).',
      document: 'CPF ou CNPJ inválido: confira os números.',
    },
    'address-form': {
      cep: 'O CEP tem 8 dígitos.',
      state: 'Use a sigla do estado, por exemplo SP.',
    },
    'card-form': {
      number: 'Número de cartão inválido ou bandeira não aceita.',
      expiry: 'Validade inválida ou cartão vencido.',
      cvv: 'Código de segurança inválido.',
      holder: 'Informe o nome impresso no cartão (até 25 caracteres).',
      encrypted_card: 'Não foi possível ler os dados do cartão. Confira e tente novamente.',
      payer_name: 'Volte à etapa do pagador e informe o nome.',
      document: 'Volte à etapa do pagador e informe um CPF ou CNPJ válido.',
    },
  };
  var FIELD_FALLBACK = 'Confira este campo.';

  /** Puts each message of a {"field": ["message"]} map beside its input; the first bad input gets focus. */
  function showErrors(form, fields, own) {
    var first = null;
    Object.keys(fields).forEach(function (name) {
      var messages = own ? [].concat(fields[name]).join(' ') : (MESSAGES[form.id] || {})[name] || FIELD_FALLBACK;
      var slot = form.querySelector('[data-error="' + name + '"]') || form.querySelector('[data-error="form"]');
      slot.textContent = (slot.textContent ? slot.textContent + ' ' : '') + messages;
      var input = form.querySelector('[name="' + name + '"]');
      if (input) {
        input.setAttribute('aria-invalid', 'true');
        if (!first) first = input;
      }
    });
    (first || form.querySelector('h1')).focus();
  }

  function formError(form, text) {
    form.querySelector('[data-error="form"]').textContent = text;
    form.querySelector('h1').focus();
  }

  function busy(form, on) {
    Array.prototype.forEach.call(form.querySelectorAll('button'), function (b) {
      b.disabled = on;
    });
    form.setAttribute('aria-busy', on ? 'true' : 'false');
  }

  /** PIX: the poll of the newest QR code and the countdown of the one shown. */
  var pixPoll = null;
  /** Stops the countdown of the QR code shown (PixView.countdown). */
  var pixTick = function () {};

  function chosenMethod() {
    var checked = document.querySelector('input[name="method"]:checked');
    return checked ? checked.value : 'card';
  }

  /** The payment step shows the card fields or the PIX panel; the choice only when the link takes both. */
  function showMethod() {
    var methods = checkout.paymentMethods || ['card'];
    $('methods').hidden = methods.length < 2;
    if (methods.length === 1) document.querySelector('input[name="method"][value="' + methods[0] + '"]').checked = true;
    var pix = chosenMethod() === 'pix';
    $('card-fields').hidden = pix;
    $('pay-button').hidden = pix;
    $('card-secure').hidden = pix;
    $('pix-panel').hidden = !pix;
    if (pix) pixCheck();
  }

  function pixStatus(text) {
    $('pix-status').textContent = text;
  }

  function showPix(pix) {
    clearTimeout(pixPoll);
    pixTick();
    if (pix.status === 'paid_twice' || pix.status === 'returned') {
      $('pix-code').hidden = true;
      $('pix-start').hidden = true;
      pixStatus('Este link já estava pago: o valor do seu PIX será devolvido para a sua conta.');
      return;
    }
    if (pix.linkPaid) return load(); // the receipt
    if (pix.status === 'waiting') {
      $('pix-start').hidden = true;
      $('pix-code').hidden = false;
      $('pix-image').src = pix.qrCodeImage;
      $('pix-copy-paste').value = pix.qrCode;
      $('pix-amount').textContent = money(pix.amount);
      pixTick = window.PixView.countdown($('pix-countdown'), pix.secondsLeft, pixCheck);
      pixStatus('Aguardando o pagamento do PIX…');
      pixPoll = setTimeout(pixCheck, 3000);
      return;
    }
    $('pix-code').hidden = true;
    $('pix-start').hidden = false;
    if (pix.status === 'expired') {
      $('pix-start').textContent = 'Gerar novo QR Code';
      pixStatus('O QR Code expirou sem pagamento. Gere um novo para pagar.');
    } else if (pix.status === 'failed') {
      if (!pixWaitStop) pixStatus('Não foi possível gerar o QR Code. Tente novamente.'); // else the wait's text stays
    } else if (pix.status === 'creating') {
      pixPoll = setTimeout(pixCheck, 2000);
    } else {
      pixStatus('');
    }
  }

  function pixCheck() {
    clearTimeout(pixPoll);
    request('GET', '/pix').then(
      function (res) {
        if (res.status === 200) showPix(res.data);
        else pixPoll = setTimeout(pixCheck, 5000);
      },
      function () {
        pixPoll = setTimeout(pixCheck, 5000);
      },
    );
  }

  /** Ends the wait after a failed code (pixWait) early; null while none runs. */
  var pixWaitStop = null;

  /**
   * The acquirer failed the link's code: the service makes none for Retry-After seconds (answering 503
   * meanwhile), so the button waits as long, counting down on its label. The status (a live region) is
   * said twice, not every second: the reason and the wait, then that the payer may try again.
   */
  function pixWait(message, retryAfter) {
    if (pixWaitStop) pixWaitStop();
    var button = $('pix-start');
    var label = button.textContent;
    var ends = Date.now() + Math.max(1, Math.ceil(Number(retryAfter)) || 5) * 1000;
    var timer = null;
    function secondsLeft() {
      return Math.max(0, Math.ceil((ends - Date.now()) / 1000));
    }
    function stop() {
      clearInterval(timer);
      pixWaitStop = null;
      button.disabled = false;
      button.textContent = label;
    }
    function tick() {
      var left = secondsLeft();
      if (left > 0) {
        button.textContent = 'Aguarde ' + left + ' s';
        return;
      }
      stop();
      pixStatus(message + ' Tente novamente.');
    }
    var left = secondsLeft();
    pixStatus(message + ' Tente novamente em ' + left + (left === 1 ? ' segundo.' : ' segundos.'));
    button.disabled = true;
    pixWaitStop = stop;
    tick();
    timer = setInterval(tick, 1000);
  }

  function pixStart() {
    $('pix-start').disabled = true;
    pixStatus('Gerando o QR Code…');
    request('POST', '/pix').then(
      function (res) {
        $('pix-start').disabled = false;
        if (res.status === 200) return showPix(res.data);
        if (res.status === 409) {
          // Paid meanwhile, or another payer is making the code: the newest state tells which.
          pixStatus('Aguarde um instante…');
          pixPoll = setTimeout(pixCheck, 2000);
          return;
        }
        if (res.status === 429) return pixStatus('Muitas tentativas. Aguarde ' + minutes(res.retryAfter) + '.');
        if ((res.status === 502 || res.status === 503) && res.retryAfter) {
          // 503 after failed codes carries the payer's text; the failing 502 (and a service down) does not.
          var text = (res.data && res.data.payerMessage) || 'Não foi possível gerar o QR Code agora. Nada foi cobrado.';
          return pixWait(text, res.retryAfter);
        }
        pixStatus('Não foi possível gerar o QR Code. Tente novamente em instantes.');
      },
      function () {
        $('pix-start').disabled = false;
        pixStatus('Sem conexão. Confira a internet e tente novamente.');
      },
    );
  }

  function installmentsText(receipt) {
    var n = receipt.installments || checkout.installments;
    if (n === 1) return 'À vista';
    var each = receipt.installmentValue ? ' de ' + money(receipt.installmentValue) : '';
    return n + 'x' + each + (receipt.interestFree === false ? ' com juros' : ' sem juros');
  }

  function showReceipt() {
    hideAll();
    setStatus('');
    var r = checkout.receipt || {};
    var rows = [
      ['Valor', money(checkout.amount)],
      ['Loja', checkout.merchantCompanyName],
      ['Descrição', checkout.description || '—'],
      ['Pago em', r.paymentDate ? dateTime(r.paymentDate) : '—'],
    ];
    if (r.method === 'pix') {
      rows.push(['Forma de pagamento', 'PIX']);
    } else {
      rows.push(['Cartão', (r.cardBrand || '') + ' final ' + (r.cardLast4 || '')]);
      rows.push(['Parcelas', installmentsText(r)]);
      rows.push(['Autorização', r.authorization || '—', 'receipt-authorization']);
    }
    if (r.total && r.total !== checkout.amount) rows.splice(1, 0, ['Total pago', money(r.total)]);
    // The 20-digit transaction id wraps on a phone: it is shown only on screens wide enough (CSS).
    if (r.tid) rows.push(['Transação (TID)', r.tid, 'receipt-tid', 'wide-only']);
    var dl = $('receipt-details');
    dl.textContent = '';
    rows.forEach(function (row) {
      var dt = document.createElement('dt');
      dt.textContent = row[0];
      var dd = document.createElement('dd');
      dd.textContent = row[1];
      if (row[2]) dd.id = row[2];
      if (row[3]) dt.className = dd.className = row[3];
      dl.appendChild(dt);
      dl.appendChild(dd);
    });
    $('receipt').hidden = false;
    $('receipt').querySelector('h1').focus();
  }

  /** Shows whatever state the link is in; a pending link starts at the payer step. */
  function render() {
    showSummary();
    if (checkout.paid) {
      showReceipt();
      return;
    }
    if (checkout.expired) {
      hideAll();
      setStatus(
        'Este link de pagamento expirou em ' + dateTime(checkout.expiresAt) + '. Peça um novo link à loja.',
        'bad',
      );
      return;
    }
    $('payer_name').value = checkout.payerName || '';
    // A document already on file is never sent back whole: show it masked and let the payer keep it.
    $('document').placeholder = checkout.payerDocumentSaved ? checkout.payerDocument + ' (já informado)' : '';
    if (checkout.address) {
      ['cep', 'street', 'number', 'complement', 'neighborhood', 'city', 'state', 'reference'].forEach(function (name) {
        $(name).value = checkout.address[name] || '';
      });
    }
    showStep('payer');
  }

  /**
   * A 409 means the link changed under us (paid elsewhere, expired): reload and show its state.
   * Still payable: a pay of it is in progress (the answer says when to retry), or it took all the
   * declined cards it accepts.
   */
  function handleConflict(form, res) {
    return load().then(function () {
      if (checkout.paid || checkout.expired) return;
      formError(
        form,
        res.retryAfter
          ? 'Um pagamento deste link já está em andamento. Aguarde alguns segundos e tente novamente.'
          : 'Este link não aceita mais cartões depois de várias recusas. Peça um novo link à loja.',
      );
    });
  }

  function minutes(retryAfter) {
    var count = Math.max(1, Math.ceil(Number(retryAfter) / 60) || 1);
    return count === 1 ? '1 minuto' : count + ' minutos';
  }

  function handleFailure(form, res) {
    if (res.status === 400 && res.data && !res.data.detail) return showErrors(form, res.data);
    if (res.status === 409) return handleConflict(form, res);
    if (res.status === 404) return load();
    if (res.status === 429)
      return formError(
        form,
        'Muitas tentativas a partir desta conexão. Tente novamente em ' + minutes(res.retryAfter) + '.',
      );
    if (res.status === 502)
      return formError(form, 'Não conseguimos falar com a operadora do cartão. Nada foi cobrado; tente novamente.');
    formError(form, 'Algo deu errado. Tente novamente em instantes.');
  }

  function submitStep(form, method, path, body, next) {
    clearErrors(form);
    busy(form, true);
    return request(method, path, body)
      .then(function (res) {
        busy(form, false);
        if (res.status === 200) {
          checkout = res.data.checkout || res.data;
          return next(res.data);
        }
        return handleFailure(form, res);
      })
      .catch(function () {
        busy(form, false);
        formError(form, 'Sem conexão. Verifique sua internet e tente novamente.');
      });
  }

  function value(id) {
    return $(id).value.trim();
  }

  function luhn(number) {
    var sum = 0;
    for (var i = 0; i < number.length; i++) {
      var d = Number(number[number.length - 1 - i]);
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    return sum % 10 === 0;
  }

  /** American Express numbers (34, 37) are printed 4-6-5; every other brand in fours. */
  function cardGroups(digits) {
    return /^3[47]/.test(digits) ? [4, 6, 5] : [4, 4, 4, 4, 3];
  }

  function groupCardDigits(digits) {
    var parts = [];
    var start = 0;
    cardGroups(digits).forEach(function (size) {
      if (start < digits.length) parts.push(digits.slice(start, start + size));
      start += size;
    });
    return parts.join(' ');
  }

  /** The caret's place in a formatted value: right after its count-th digit, never after a separator following it. */
  function caretAfterDigits(formatted, count) {
    if (count === 0) return 0;
    var seen = 0;
    for (var i = 0; i < formatted.length; i++) {
      if (/\d/.test(formatted[i]) && ++seen === count) return i + 1;
    }
    return formatted.length;
  }

  /**
   * Formats a digits-only field as the payer types, pastes or autofills it: `digitsOf` reads the digits a
   * value means, `format` writes them with the field's separators. The caret is tracked by the digits before
   * it, so typing or deleting in the middle leaves it where it was (after the last digit: at the very end,
   * past a separator written there); a Backspace or Delete that only took a separator takes the digit beyond
   * it too, as the payer meant.
   */
  function formatAsTyped(input, digitsOf, format) {
    var previousDigits = '';
    input.addEventListener('input', function (event) {
      var raw = input.value;
      var caret = input.selectionStart === null ? raw.length : input.selectionStart;
      var digitsBefore = digitsOf(raw.slice(0, caret));
      var digits = digitsOf(raw);
      if (digits === previousDigits && event.inputType === 'deleteContentBackward' && digitsBefore.length > 0) {
        digitsBefore = digitsBefore.slice(0, -1);
        digits = digitsBefore + digits.slice(digitsBefore.length + 1);
      } else if (digits === previousDigits && event.inputType === 'deleteContentForward') {
        digits = digitsBefore + digits.slice(digitsBefore.length + 1);
      }
      var formatted = format(digits);
      previousDigits = digits;
      if (formatted === raw) return;
      input.value = formatted;
      if (document.activeElement === input) {
        var count = Math.min(digitsBefore.length, digits.length);
        var place = count === digits.length ? formatted.length : caretAfterDigits(formatted, count);
        input.setSelectionRange(place, place);
      }
    });
  }

  /** The card number: at most 19 digits, grouped (cardGroups). */
  function cardDigits(text) {
    return text.replace(/\D/g, '').slice(0, 19);
  }

  /**
   * The expiry's digits: the month, then a year of 2 or 4 digits. A month that can only be one digit long
   * (typed 2 to 9, or 1 followed by a slash) gets its 0, so "4" reads as 04 and "1/28" as 01/28.
   */
  function expiryDigits(text) {
    var slash = text.indexOf('/');
    var month = (slash < 0 ? text : text.slice(0, slash)).replace(/\D/g, '');
    var digits = text.replace(/\D/g, '');
    if ((slash >= 0 && month.length === 1) || /^[2-9]/.test(digits)) digits = '0' + digits;
    return digits.slice(0, 6);
  }

  /** MM/AA (or MM/AAAA): the slash written as soon as the month is complete. */
  function formatExpiry(digits) {
    return digits.length < 2 ? digits : digits.slice(0, 2) + '/' + digits.slice(2);
  }

  /** Quick checks before encrypting, so obvious typos are caught without a round trip. The server checks again. */
  function readCard() {
    var errors = {};
    // Only the digits are encrypted: the spaces of the grouping are the page's, never the card's.
    var number = value('card-number').replace(/\D/g, '');
    var holder = value('card-holder');
    var expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(value('card-expiry'));
    var cvv = value('card-cvv');
    if (!holder) errors.holder = ['Informe o nome impresso no cartão.'];
    if (!/^\d{12,19}$/.test(number) || !luhn(number)) errors.number = ['Número de cartão inválido.'];
    if (!expiry || Number(expiry[1]) < 1 || Number(expiry[1]) > 12) errors.expiry = ['Use o formato MM/AA.'];
    if (!/^\d{3,4}$/.test(cvv)) errors.cvv = ['O CVV tem 3 ou 4 dígitos.'];
    if (Object.keys(errors).length) return { errors: errors };
    var year = Number(expiry[2]);
    return {
      card: {
        number: number,
        holder: holder,
        expMonth: Number(expiry[1]),
        expYear: year < 100 ? 2000 + year : year,
        cvv: cvv,
      },
    };
  }

  function encryptCard(card) {
    var key = window.forge.pki.publicKeyFromPem(checkout.publicKey);
    var encrypted = key.encrypt(window.forge.util.encodeUtf8(JSON.stringify(card)), 'RSAES-PKCS1-V1_5');
    return window.forge.util.encode64(encrypted);
  }

  function load() {
    return request('GET', '').then(
      function (res) {
        if (res.status === 404) {
          hideAll();
          $('summary').hidden = true;
          setStatus('Link de pagamento não encontrado. Confira o endereço recebido da loja.', 'bad');
          return;
        }
        if (res.status !== 200) {
          setStatus('Não foi possível carregar o pagamento. Tente novamente em instantes.', 'bad');
          return;
        }
        checkout = res.data;
        render();
      },
      function () {
        setStatus('Sem conexão. Verifique sua internet e recarregue a página.', 'bad');
      },
    );
  }

  function wire() {
    formatAsTyped($('card-number'), cardDigits, groupCardDigits);
    formatAsTyped($('card-expiry'), expiryDigits, formatExpiry);
    $('payer-form').addEventListener('submit', function (event) {
      event.preventDefault();
      if (
        !value('document') &&
        checkout.payerDocumentSaved &&
        value('payer_name') === checkout.payerName &&
        checkout.payerName
      ) {
        clearErrors(this);
        return showStep('address');
      }
      submitStep(
        this,
        'PATCH',
        '/payer',
        { payer_name: value('payer_name'), document: value('document') },
        function () {
          showStep('address');
        },
      );
    });
    $('address-form').addEventListener('submit', function (event) {
      event.preventDefault();
      var body = {};
      ['cep', 'street', 'number', 'complement', 'neighborhood', 'city', 'state', 'reference'].forEach(function (name) {
        body[name] = value(name);
      });
      submitStep(this, 'PATCH', '/address', body, function () {
        showStep('card');
      });
    });
    $('installments').addEventListener('change', showChosenTotal);
    Array.prototype.forEach.call(document.querySelectorAll('input[name="method"]'), function (radio) {
      radio.addEventListener('change', showMethod);
    });
    $('pix-start').addEventListener('click', pixStart);
    window.PixView.wireCopy($('pix-copy'), $('pix-copy-paste'), pixStatus);
    $('card-form').addEventListener('submit', function (event) {
      event.preventDefault();
      var form = this;
      clearErrors(form);
      var read = readCard();
      if (read.errors) return showErrors(form, read.errors, true);
      var encrypted;
      try {
        encrypted = encryptCard(read.card);
      } catch (e) {
        return formError(form, 'Não foi possível proteger os dados do cartão neste navegador.');
      }
      var pay = { encrypted_card: encrypted };
      if (chosenOption()) pay.installments = chosenOption().installments;
      submitStep(form, 'PUT', '/pay', pay, function (result) {
        if (result.approved) {
          ['card-number', 'card-cvv'].forEach(function (id) {
            $(id).value = '';
          });
          showReceipt();
        } else {
          // payerMessage is Portuguese; the acquirer's own message (English) is for the merchant, never shown here.
          var denial = result.denial || {};
          formError(form, 'Pagamento recusado. ' + (denial.payerMessage || 'Confira os dados ou use outro cartão.'));
        }
      });
    });
    Array.prototype.forEach.call(document.querySelectorAll('[data-back]'), function (button) {
      button.addEventListener('click', function () {
        showStep(button.getAttribute('data-back'));
      });
    });
  }

  wire();
  load();
})();
