/*
 * The PIX view both public pages show (a payment link's PIX step, a Pix Automático authorisation):
 * the QR code's countdown and the copy-and-paste button. A plain script loaded before the page's
 * own: it defines window.PixView.
 */
(function () {
  'use strict';

  function money(cents) {
    return (cents / 100).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });
  }

  function twoDigits(n) {
    return String(n).padStart(2, '0');
  }

  /** m:ss, or h:mm:ss for a code that lives hours (a Pix Automático authorisation lives a day). */
  function clock(seconds) {
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = twoDigits(seconds % 60);
    return hours ? hours + ':' + twoDigits(minutes) + ':' + rest : minutes + ':' + rest;
  }

  /**
   * Shows "O código expira em m:ss" in `element` every second; at 0 stops and calls onEnd once.
   * Returns a function that stops it.
   */
  function countdown(element, secondsLeft, onEnd) {
    var ends = Date.now() + secondsLeft * 1000;
    var timer = null;
    var ended = false;
    function tick() {
      var left = Math.max(0, Math.round((ends - Date.now()) / 1000));
      element.textContent = 'O código expira em ' + clock(left);
      if (left === 0 && !ended) {
        ended = true;
        clearInterval(timer);
        onEnd();
      }
    }
    tick();
    if (!ended) timer = setInterval(tick, 1000);
    return function stop() {
      ended = true;
      clearInterval(timer);
    };
  }

  /** The copy button: the code goes to the clipboard, or is left selected for the payer to copy. */
  function wireCopy(button, code, say) {
    button.addEventListener('click', function () {
      code.select();
      var copied = navigator.clipboard ? navigator.clipboard.writeText(code.value) : Promise.reject();
      copied.then(
        function () {
          say('Código copiado. Cole no app do seu banco.');
        },
        function () {
          say('Selecione o código e copie.');
        },
      );
    });
  }

  window.PixView = { money: money, countdown: countdown, wireCopy: wireCopy };
})();
