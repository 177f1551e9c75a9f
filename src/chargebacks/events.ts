/**
 * The account events of chargebacks (src/events), read from the chargeback's projection after each
 * fact is applied: chargeback.received once its notice is confirmed, chargeback.updated once per
 * lifecycle step (keyed by the step's date and text), chargeback.accepted and chargeback.refused once
 * the merchant's answer is recorded. Every id is deterministic, so a re-applied notice or a
 * recomputed projection records nothing twice. The projection's write owes them (src/events/outbox.ts).
 * The merchant is the establishment's owner; a chargeback of an establishment no merchant owns has
 * no account to tell.
 */
import crypto from 'node:crypto';
import { emitEvent, type NewEvent } from '../events/recording';
import { EstablishmentOwnerModel } from '../merchants/establishments';
import { logger } from '../platform/logger';
import { parseJson } from './common';
import { ChargebackModel, type Chargeback } from './model';

/** The chargeback as the events show it: its ids, status, dates, the acquirer's item and lifecycle. */
export function chargebackView(chargeback: Chargeback) {
  return {
    id: chargeback._id,
    establishmentNumber: chargeback.establishmentNumber,
    idChargeback: chargeback.idChargeback,
    idCase: chargeback.idCase,
    status: chargeback.status,
    receptionDate: chargeback.receptionDate,
    treatmentDeadline: chargeback.treatmentDeadline,
    acceptedAt: chargeback.acceptedAt?.toISOString() ?? null,
    refusedAt: chargeback.refusedAt?.toISOString() ?? null,
    outcomeAt: chargeback.outcomeAt?.toISOString() ?? null,
    item: parseJson(chargeback.item) ?? null,
    lifecycle: (parseJson(chargeback.lifecycle) ?? []) as { action: string; actionDate: string }[],
  };
}

const stepKey = (step: { action: string; actionDate: string }) =>
  crypto.createHash('sha256').update(`${step.actionDate}|${step.action}`).digest('hex').slice(0, 16);

/** The merchant told of an establishment's chargebacks: its owner (none: no account to tell). */
export async function chargebackAccountOf(establishmentNumber: string): Promise<number | null> {
  return (await EstablishmentOwnerModel.findById(establishmentNumber).lean())?.merchantId ?? null;
}

/**
 * Every event a projection of the chargeback owes (deterministic ids: those recorded before are
 * found, not repeated). Each projection write owes them all (src/chargebacks/projection.ts), since it
 * replaces the document whole.
 */
export function chargebackEvents(chargeback: Chargeback, merchantId: number): NewEvent[] {
  const data = chargebackView(chargeback);
  const objectId = `${chargeback.establishmentNumber}-${chargeback.idChargeback}`;
  const base = { merchantId, objectId, data };
  const events: NewEvent[] = [];
  if (chargeback.item) events.push({ ...base, type: 'chargeback.received' });
  for (const step of data.lifecycle)
    events.push({ ...base, type: 'chargeback.updated', change: `updated_${stepKey(step)}` });
  if (chargeback.acceptedAt) events.push({ ...base, type: 'chargeback.accepted' });
  if (chargeback.refusedAt) events.push({ ...base, type: 'chargeback.refused' });
  return events;
}

/** Records every event the chargeback's stored projection owes (a repair tool: the projection's write records them). */
export async function emitChargebackEvents(establishmentNumber: string, idChargeback: string): Promise<void> {
  try {
    const [chargeback, merchantId] = await Promise.all([
      ChargebackModel.findById(`${establishmentNumber}:${idChargeback}`).lean(),
      chargebackAccountOf(establishmentNumber),
    ]);
    if (!chargeback || merchantId === null) return;
    for (const event of chargebackEvents(chargeback, merchantId)) await emitEvent(event);
  } catch (err) {
    logger.error({ err, establishmentNumber, idChargeback }, 'could not record the account events of a chargeback');
  }
}
