/**
 * What the payer reads when the acquirer declines a card, or cannot make a PIX code: Portuguese, by the
 * acquirer's ReturnCode.
 * The raw code and message stay what the merchant's API and webhooks carry; this text is only for
 * the checkout page.
 *
 * The codes are the ABECS ones the acquirer documents for production plus those its sandbox answers
 * (docs/sandbox.md); where the two disagree (57: "transaction not allowed" in production, "Card
 * Expired" in the sandbox) the text fits both. Lost, stolen and suspected-fraud cards get the
 * generic text: a public page must not tell a card tester which numbers are flagged.
 */
const GENERIC = 'O banco emissor não autorizou o pagamento. Confira os dados ou use outro cartão.';
const TRY_AGAIN = 'O banco emissor não respondeu a tempo. Nada foi cobrado; tente novamente em instantes.';
const BLOCKED = 'O cartão está bloqueado. Desbloqueie-o no aplicativo do banco ou use outro cartão.';

const BY_RETURN_CODE: Readonly<Record<string, string>> = {
  '05': GENERIC,
  '41': GENERIC,
  '43': GENERIC,
  '59': GENERIC,
  '14': 'Número do cartão inválido. Confira o número ou use outro cartão.',
  '51': 'Saldo ou limite insuficiente. Use outro cartão.',
  '54': 'O cartão está vencido. Use outro cartão.',
  '57': 'Este cartão não pode ser usado nesta compra (confira a validade). Use outro cartão.',
  '61': 'O valor passa do limite do cartão. Use outro cartão.',
  '62': BLOCKED,
  '78': BLOCKED,
  '63': 'Código de segurança (CVV) inválido. Confira o código no verso do cartão.',
  N7: 'Código de segurança (CVV) inválido. Confira o código no verso do cartão.',
  '70': 'Há um problema com este cartão. Fale com o banco emissor ou use outro cartão.',
  '77': 'Este cartão foi cancelado. Use outro cartão.',
  '91': TRY_AGAIN,
  '96': TRY_AGAIN,
  '99': TRY_AGAIN,
};

/** The payer's text for a declined card; an unknown code gets the generic one, never the acquirer's English. */
export function payerDenialMessage(returnCode: string): string {
  const raw = String(returnCode ?? '')
    .trim()
    .toUpperCase();
  const code = /^\d$/.test(raw) ? `0${raw}` : raw;
  return Object.hasOwn(BY_RETURN_CODE, code) ? BY_RETURN_CODE[code] : GENERIC;
}

/**
 * The payer's text while a link waits after failed PIX codes (pix-backoff.ts); the page adds the countdown
 * (Retry-After), so the text names no time.
 */
export const PIX_UNAVAILABLE =
  'Não foi possível gerar o QR Code agora: o sistema de pagamentos não respondeu. Nada foi cobrado.';
