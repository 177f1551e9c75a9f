/**
 * One chargeback document computed from the set of its events, whatever their order, and the reads
 * and writes that keep it so while several workers apply notices of one chargeback at once.
 *
 * The events of a chargeback are its own (received, accepted, refused: by establishment and
 * idChargeback) and the lifecycle steps of its case (by establishment and idCase). Each set is one
 * equality read on an index; the case's read also holds its chargebacks' own events that carry the case.
 */
import crypto from 'node:crypto';
import { insertOnce, retryOnDuplicateKey } from '../db/claims';
import { oweEvents, owedFields, recordOwed, type Owed } from '../events/outbox';
import { chargebackAccountOf, chargebackEvents } from './events';
import {
  ChargebackEventModel,
  ChargebackModel,
  type Chargeback,
  type ChargebackEvent,
  type ChargebackStatus,
} from './model';

/** Inserts an event once (its _id is the fact); false when it was recorded already. */
export async function insertEvent(event: Omit<ChargebackEvent, 'createdAt'>): Promise<boolean> {
  return (await insertOnce(ChargebackEventModel, { ...event, createdAt: new Date() })) === 'inserted';
}

export function normalise(message: string): string {
  return message
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** The _id of a lifecycle step: one per establishment, case, day and message (as normalised). */
export function lifecycleEventId(establishmentNumber: string, idCase: string, date: string, message: string): string {
  const hash = crypto.createHash('sha256').update(normalise(message)).digest('hex').slice(0, 16);
  return `lifecycle:${establishmentNumber}:${idCase}:${date}:${hash}`;
}

type StepKind = 'client' | 'intermediate' | 'win' | 'loss';

export function lifecycleStepKind(message: string): StepKind {
  const text = normalise(message);
  if (text === 'a favor do estabelecimento') return 'win';
  if (text === 'a favor do emissor') return 'loss';
  if (text.startsWith('em analise com o cliente')) return 'client';
  return 'intermediate';
}

const STEP_RANK: Record<StepKind, number> = { client: 0, intermediate: 1, win: 2, loss: 2 };

interface Step {
  action: string;
  actionDate: string;
  at: Date;
  kind: StepKind;
}

/** Every event of one case of one establishment: one equality read on the {establishmentNumber, idCase} index. */
export function eventsOfCase(establishmentNumber: string, idCase: string): Promise<ChargebackEvent[]> {
  return ChargebackEventModel.find({ establishmentNumber, idCase }).lean<ChargebackEvent[]>();
}

/** Of events read by chargeback and by case, those of this chargeback: its own and its case's steps, each once. */
function eventsOfChargeback(idChargeback: string, events: ChargebackEvent[]): ChargebackEvent[] {
  const byId = new Map<string, ChargebackEvent>();
  for (const event of events)
    if (event.kind === 'lifecycle' || event.idChargeback === idChargeback) byId.set(event._id, event);
  return [...byId.values()];
}

/**
 * Reads the events of one chargeback. `knownCase`: its case when the caller knows it (the notice
 * names it), so both reads go together; `caseEvents`: that case's events when the caller has just
 * read them, so only the chargeback's own are read. Its own events may name a case the caller did
 * not know (a refusal recorded before its notice came): that case is read too.
 */
async function gatherEvents(
  establishmentNumber: string,
  idChargeback: string,
  knownCase: string | null,
  caseEvents?: ChargebackEvent[],
): Promise<ChargebackEvent[]> {
  const [own, ofKnownCase] = await Promise.all([
    ChargebackEventModel.find({ establishmentNumber, idChargeback }).lean<ChargebackEvent[]>(),
    caseEvents ?? (knownCase ? eventsOfCase(establishmentNumber, knownCase) : []),
  ]);
  const otherCases = [...new Set(own.map((e) => e.idCase))].filter(
    (idCase): idCase is string => Boolean(idCase) && idCase !== knownCase,
  );
  const ofOtherCases = await Promise.all(otherCases.map((idCase) => eventsOfCase(establishmentNumber, idCase)));
  return eventsOfChargeback(idChargeback, [...own, ...ofKnownCase, ...ofOtherCases.flat()]);
}

export function projectChargeback(
  establishmentNumber: string,
  idChargeback: string,
  events: ChargebackEvent[],
): Omit<Chargeback, 'updatedAt'> {
  const received = events.find((e) => e.kind === 'received');
  const accepted = events.find((e) => e.kind === 'accepted');
  const refused = events.find((e) => e.kind === 'refused');
  const item = received ? (JSON.parse(received.data) as Record<string, any>) : null;
  const steps: Step[] = events
    .filter((e) => e.kind === 'lifecycle')
    .map((e) => {
      const data = JSON.parse(e.data) as { message: string; ActionCicleDate: string };
      return {
        action: data.message,
        actionDate: data.ActionCicleDate,
        at: e.at,
        kind: lifecycleStepKind(data.message),
      };
    })
    .sort(
      (a, b) =>
        a.at.getTime() - b.at.getTime() || STEP_RANK[a.kind] - STEP_RANK[b.kind] || a.action.localeCompare(b.action),
    );
  const finals = steps.filter((s) => s.kind === 'win' || s.kind === 'loss');
  const final = finals[finals.length - 1];
  const latest = steps[steps.length - 1];

  let status: ChargebackStatus;
  let outcomeAt: Date | null = null;
  if (accepted) {
    status = 'ACCEPTED';
    outcomeAt = accepted.at;
  } else if (final) {
    status = final.kind === 'win' ? 'WON' : 'LOST';
    outcomeAt = final.at;
  } else if (refused || (latest && latest.kind !== 'client')) {
    // Lifecycle past the merchant (with the issuer or the acquirer): it was answered elsewhere.
    status = 'REFUSED';
  } else if (received) {
    status = 'PENDING';
  } else {
    status = 'UNRECEIVED';
  }
  const idCase =
    (item?.idCase !== undefined ? String(item.idCase) : null) ??
    refused?.idCase ??
    events.find((e) => e.idCase)?.idCase ??
    null;
  return {
    _id: `${establishmentNumber}:${idChargeback}`,
    establishmentNumber,
    idChargeback,
    idCase,
    status,
    item: received ? received.data : '',
    lifecycle: JSON.stringify(steps.map(({ action, actionDate }) => ({ action, actionDate }))),
    receptionDate: item?.chargebackDetails?.receptionDate ?? null,
    treatmentDeadline: item?.treatmentDeadline ?? null,
    acceptedAt: accepted?.at ?? null,
    refusedAt: refused?.at ?? null,
    outcomeAt,
    eventCount: events.length,
  };
}

const MAX_REFRESH_ROUNDS = 20;

/**
 * Recomputes one chargeback from its events until a re-read after the write shows no new event.
 * Whoever writes last has therefore seen every event inserted before its write, so concurrent
 * refreshes (which FerretDB may both apply) still end in the projection of all events. Round
 * trips: its events (one or two reads, together, with its owner's), the write, the same reads again,
 * then the recording of the events the write owes.
 */
export async function refreshChargeback(
  establishmentNumber: string,
  idChargeback: string,
  knownCase: string | null = null,
  caseEvents?: ChargebackEvent[],
  /** The establishment's owner, when the caller read it already. */
  owner?: number | null,
): Promise<void> {
  const [gathered, merchantId] = await Promise.all([
    gatherEvents(establishmentNumber, idChargeback, knownCase, caseEvents),
    owner !== undefined ? owner : chargebackAccountOf(establishmentNumber),
  ]);
  let events = gathered;
  for (let round = 0; round < MAX_REFRESH_ROUNDS; round++) {
    const projection = projectChargeback(establishmentNumber, idChargeback, events);
    const owed = owedBy(projection, merchantId);
    // Two first writers racing on the upsert: the loser's second try finds the document and replaces it.
    await retryOnDuplicateKey(
      () =>
        ChargebackModel.replaceOne(
          { _id: projection._id },
          { ...projection, updatedAt: new Date(), ...owedFields(owed) },
          { upsert: true },
        ),
      2,
    );
    const after = await gatherEvents(establishmentNumber, idChargeback, knownCase);
    if (after.length === events.length) return recordOwed(ChargebackModel, projection._id, owed);
    events = after;
  }
  throw new Error(`chargeback ${establishmentNumber}:${idChargeback} kept changing while being recomputed`);
}

/**
 * Writes a chargeback's document before a fact of it is recorded without its case (an accept or
 * refusal before its notice came): an UNRECEIVED projection of no events, in no view, unless one is
 * there already. It tells projectReceived that this chargeback has facts its case's read cannot see.
 */
export async function holdChargeback(establishmentNumber: string, idChargeback: string): Promise<void> {
  await insertOnce(ChargebackModel, {
    ...projectChargeback(establishmentNumber, idChargeback, []),
    updatedAt: new Date(),
  });
}

/**
 * Projects a chargeback whose received event was just recorded: one read of its case's events and
 * one insert when no projection of it exists yet (its notice is usually its first fact). The
 * insert needs no re-read: every event that read missed is either recorded by a writer that has
 * not written this chargeback yet (a later step or action, whose own refresh reads after our event
 * and writes after our insert, re-reading until nothing changes) or an action recorded before its
 * case was known, which holds the document (holdChargeback) before its event is inserted, so our
 * insert finds it even if that writer died before its refresh. A document already there (a
 * re-apply, an earlier action or step, a racing writer) takes the full refresh.
 */
export async function projectReceived(establishmentNumber: string, idChargeback: string, idCase: string) {
  const [caseEvents, merchantId] = await Promise.all([
    eventsOfCase(establishmentNumber, idCase),
    chargebackAccountOf(establishmentNumber),
  ]);
  const projection = projectChargeback(establishmentNumber, idChargeback, eventsOfChargeback(idChargeback, caseEvents));
  const owed = owedBy(projection, merchantId);
  const written = await insertOnce(ChargebackModel, { ...projection, updatedAt: new Date(), ...owedFields(owed) });
  if (written === 'exists') await refreshChargeback(establishmentNumber, idChargeback, idCase, caseEvents, merchantId);
  else await recordOwed(ChargebackModel, projection._id, owed);
}

/**
 * The account events a projection's write owes (src/events/outbox.ts): all of its events, every
 * time, since the write replaces the document whole (entries of an earlier write go with it); those
 * recorded before are found by their ids, not recorded twice. None without an owning merchant.
 */
function owedBy(projection: ReturnType<typeof projectChargeback>, merchantId: number | null): Owed {
  const chargeback = { ...projection, updatedAt: new Date() } as Chargeback;
  return oweEvents(merchantId === null ? [] : chargebackEvents(chargeback, merchantId));
}
