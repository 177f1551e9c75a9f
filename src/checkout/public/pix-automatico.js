/*
 * The payer's authorisation page of a Pix Automático mandate: what is authorised (merchant, plan,
 * amount and period, first due date), the QR code while it waits, then the outcome. It polls the
 * public read (GET /api/v1/checkout-mandates/<token>) as the link's page polls its PIX, so the
 * approval shows without a reload once the acquirer's notice has been applied.
 */
(function () {
  'use strict';

  // The page lives at <base>/checkout/pix-automatico/<token>; <base> is empty unless PUBLIC_BASE_URL has a path.
  var PREFIX = '/checkout/pix-automatico/';
  var marker = location.pathname.lastIndexOf(PREFIX);
  var base = marker > 0 ? location.pathname.slice(0, marker) : '';
  var token = marker >= 0 ? decodeURIComponent(location.pathname.slice(marker + PREFIX.length).split('/')[0]) : '';
  var api = base + '/api/v1/checkout-mandates/' + encodeURIComponent(token);
  var money = window.PixView.money;
  var POLL_MS = 3000;
  var RETRY_MS = 5000;

  var PERIODS = {
    weekly: ['Semanal', 'por semana'],
    monthly: ['Mensal', 'por mês'],
    quarterly: ['Trimestral', 'por trimestre'],
    semiannual: ['Semestral', 'por semestre'],
    annual: ['Anual', 'por ano'],
  };

  var poll = null;
  var stopCountdown = function () {};
  var shownCode = null;

  function $(id) {
    return document.getElementById(id);
  }

  /** 2026-12-10 -> 10/12/2026, read as the calendar day it is (no time zone). */
  function day(isoDay) {
    var parts = String(isoDay).split('-');
    return parts.length === 3 ? parts[2] + '/' + parts[1] + '/' + parts[0] : isoDay;
  }

  /** The status line (a live region); without text it is hidden (class idle). */
  function setStatus(text, tone) {
    $('status-text').textContent = text;
    $('status-box').className = 'status-box ' + (text ? tone || '' : 'idle');
  }

  function showSummary(m) {
    var period = PERIODS[m.billingCycle] || [m.billingCycle, ''];
    $('summary').hidden = false;
    $('merchant-name').textContent = m.merchantName;
    $('amount').textContent =
      (m.amountType === 'variable' ? 'Até ' + money(m.maximumValue) : money(m.value)) + ' ' + period[1];
    $('plan').textContent = m.plan;
    $('period').textContent =
      'Cobrança ' + period[0].toLowerCase() + ' · primeiro vencimento em ' + day(m.firstDueDate);
    $('payer').textContent = 'Pagador: ' + m.payerName + (m.payerDocument ? ' · ' + m.payerDocument : '');
  }

  function showWaiting(m) {
    $('outcome').hidden = true;
    $('pix-panel').hidden = false;
    if (m.payNow) {
      $('pay-now').hidden = false;
      $('pay-now').textContent = 'Pague agora ' + money(m.payNow) + ' e autorize as próximas';
    }
    if (shownCode !== m.qrCodeText) {
      // The same code polled again keeps its countdown and whatever the payer selected.
      shownCode = m.qrCodeText;
      $('pix-image').src = m.qrCodeImage;
      $('pix-copy-paste').value = m.qrCodeText;
      stopCountdown();
      stopCountdown = window.PixView.countdown($('pix-countdown'), m.secondsLeft || 0, check);
    }
    setStatus('Aguardando a sua autorização no app do banco…', 'waiting');
    schedule(POLL_MS);
  }

  var OUTCOMES = {
    approved: function (m) {
      var period = (PERIODS[m.billingCycle] || ['', ''])[0].toLowerCase();
      return [
        'Autorização concluída',
        'good',
        (m.payNow ? 'O pagamento de ' + money(m.payNow) + ' foi feito. ' : '') +
          'As próximas cobranças de ' +
          m.merchantName +
          ' (' +
          m.plan +
          ', ' +
          period +
          ') serão pagas pelo seu banco em cada vencimento. Você pode cancelar no app do banco.',
      ];
    },
    rejected: function () {
      return [
        'Autorização recusada',
        'bad',
        'A autorização foi recusada no app do banco: nada será cobrado. Se foi engano, peça um novo link à loja.',
      ];
    },
    expired: function () {
      return [
        'O QR Code expirou',
        'bad',
        'O prazo para autorizar terminou e nada foi cobrado. Peça um novo link de autorização à loja.',
      ];
    },
    cancelled: function (m) {
      return [
        'Autorização cancelada',
        'bad',
        (m.cancelledBy === 'merchant'
          ? 'A loja cancelou esta autorização.'
          : 'Esta autorização foi cancelada no app do banco.') + ' Nenhuma nova cobrança será feita.',
      ];
    },
  };

  /** An approved authorisation can still be cancelled (by the merchant, or the payer in the bank app). */
  var APPROVED_POLL_MS = 10000;

  /** The outcome on screen (approved is polled again: it may still be cancelled), null before any. */
  var shownOutcome = null;

  /**
   * The outcome replaces the QR code: its heading says it once (the status line is emptied, not repeating
   * it) and takes the focus when the outcome changes, so a screen reader reads it as the link's receipt is.
   */
  function showOutcome(m) {
    stopCountdown();
    clearTimeout(poll);
    if (m.status === 'approved') schedule(APPROVED_POLL_MS);
    var outcome = OUTCOMES[m.status](m);
    $('pix-panel').hidden = true;
    setStatus('');
    $('outcome').className = 'receipt ' + outcome[1];
    $('outcome-title').textContent = outcome[0];
    $('outcome-text').textContent = outcome[2];
    $('outcome').hidden = false;
    if (shownOutcome !== m.status) $('outcome-title').focus();
    shownOutcome = m.status;
  }

  function notFound() {
    stopCountdown();
    clearTimeout(poll);
    $('summary').hidden = true;
    $('pix-panel').hidden = true;
    $('outcome').hidden = true;
    setStatus('Autorização não encontrada. Confira o endereço recebido da loja.', 'bad');
  }

  function schedule(ms) {
    clearTimeout(poll);
    poll = setTimeout(check, ms);
  }

  function render(m) {
    showSummary(m);
    if (m.status === 'waiting') showWaiting(m);
    else if (OUTCOMES[m.status]) showOutcome(m);
    else schedule(RETRY_MS);
  }

  function check() {
    clearTimeout(poll);
    fetch(api, { headers: { accept: 'application/json' }, credentials: 'omit' })
      .then(function (res) {
        if (res.status === 404) return notFound();
        if (res.status !== 200) {
          if (!shownCode) setStatus('Não foi possível carregar a autorização. Tentando de novo…', 'bad');
          return schedule(RETRY_MS);
        }
        return res.json().then(render);
      })
      .catch(function () {
        if (!shownCode) setStatus('Sem conexão. Verifique sua internet; tentando de novo…', 'bad');
        schedule(RETRY_MS);
      });
  }

  window.PixView.wireCopy($('pix-copy'), $('pix-copy-paste'), function (text) {
    $('pix-status').textContent = text;
  });
  check();
})();
