/** The acquirer's "new chargeback" notice as it posts it to us, and the headers it sends with it. */
import { getConfig } from '../../config';
import { CHARGEBACK_NOTICE_SECRET_HEADER } from '../../src/acquirer/chargebacks';

/** A first chargeback of a R$ 150,90 Visa sale at establishment `ec`, with every field the acquirer fills. */
export function newChargebackNotice(
  ec: string,
  ids: { idCase: number; idChargeback: number },
  extra: { treatmentDeadline?: string; receptionDate?: string } = {},
) {
  return {
    idCase: ids.idCase,
    idChargeback: ids.idChargeback,
    establishmentNumber: Number(ec),
    process: 'PRIMEIRO_CHARGEBACK',
    treatmentDeadline: extra.treatmentDeadline ?? '2030-01-20',
    remainingDaysToTreat: 10,
    lifecycle: {},
    transactionAmount: 150.9,
    transactionDetails: {
      tid: '00000000000000012345',
      nsu: '000123',
      truncatedCard: '401200******1112',
      cardAssociationName: 'VISA',
    },
    chargebackDetails: {
      reasonCode: '4837',
      reasonDescription: 'Transação não reconhecida',
      receptionDate: extra.receptionDate ?? '2030-01-05',
      issuerDocument: [],
    },
  };
}

/** A JSON body with the shared secret the acquirer's notices carry. */
export function chargebackNoticeHeaders(): Record<string, string> {
  return {
    'content-type': 'application/json',
    [CHARGEBACK_NOTICE_SECRET_HEADER]: getConfig().acquirer.chargeback.notificationSecret,
  };
}
