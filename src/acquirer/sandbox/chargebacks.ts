/**
 * Sandbox of the acquirer's chargeback API (dev and tests only): OAuth2 client-credentials tokens,
 * the chargeback API under /sandbox-cb/chargeback/v1 with realistic generated cases and the
 * acquirer's own rules and codes, and test controls under /sandbox-cb/_test.
 *
 * Triggers, as the acquirer's sandbox documents them: establishment 1111111111 answers 901 (500)
 * everywhere; 2222222222 always succeeds (consult with idCase 4000000 finds nothing, accept 101,
 * refuse 102, support document of 20000 is 104); lifecycle of case 30000 answers 901 (500).
 * Any other establishment gets generated cases; its rules: a chargeback of another establishment
 * is 902 (403), one already accepted or refused is 931 (412), field errors are 400 with their code.
 * Error bodies are {code, message}; HTTP mapping: validation 400, mismatch 403, 931 412, 901 500.
 */
import crypto from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import { getConfig } from '../../../config';
import { safeEqual } from '../../platform/digests';
import { CHARGEBACK_NOTICE_PATH, CHARGEBACK_NOTICE_SECRET_HEADER } from '../chargebacks';
import type { SandboxArea } from './area';

const API = '/sandbox-cb/chargeback/v1';
const CONTROL = '/sandbox-cb/_test';
const TOKEN_LIFETIME_SECONDS = 300;
const ALWAYS_FAILS = '1111111111';
const ALWAYS_SUCCEEDS = '2222222222';

interface IssuerDocument {
  idDocumento: number;
  nameFile: string;
  contentType: string;
  bytes: Buffer;
}

interface LifecycleStep {
  action: string;
  actionDate: string;
  /** Served without its establishment number (an acquirer may omit it: tests of what that proves). */
  anonymous?: boolean;
}

interface SandboxCase {
  idCase: number;
  idChargeback: number;
  establishmentNumber: string;
  process: string;
  reasonCode: string;
  reasonDescription: string;
  tpReason: string;
  receptionDate: string;
  treatmentDeadline: string;
  transactionAmount: number;
  transactionDate: string;
  cardAssociationCode: number;
  cardAssociationName: string;
  truncatedCard: string;
  nsu: string;
  tid: string;
  authorization: string;
  handled: null | { actionTakenCode: 'ACEITO' | 'RECUSADO'; replyDate: string };
  lifecycle: LifecycleStep[];
  issuerDocuments: IssuerDocument[];
  supportDocuments: { dateInclusion: string; nameFile: string; file: string }[];
  /** The consult item as a test announced it (control /chargeback): served as given. */
  announced?: Record<string, unknown>;
}

// --- state (this process's memory only) -----------------------------------------------------------

const cases = new Map<number, SandboxCase>();
const casesByEstablishment = new Map<string, SandboxCase[]>();
const documents = new Map<number, { document: IssuerDocument; owner: SandboxCase }>();
const tokens = new Map<string, number>();
const faults = new Map<string, 'hang' | 'reset'>();
const gates = new Map<number, { opened: Promise<void>; open: () => void }>();
const stats = { tokensIssued: 0, tokenRequests: 0, apiCalls: 0, lastRefuse: null as null | Record<string, unknown> };
let nextCase = 5_000_001;
let nextChargeback = 50_001;
let nextDocument = 70_001;

// --- generated data ---------------------------------------------------------------------------------

function prng(seed: string): () => number {
  let a = crypto.createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const day = (offsetDays: number, from = new Date()) =>
  new Date(from.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const BRANDS: [number, string][] = [
  [1, 'VISA'],
  [2, 'MASTERCARD'],
  [3, 'AMEX'],
  [7, 'ELO'],
  [40, 'HIPERCARD'],
];
const REASONS: [string, string, string][] = [
  ['4837', 'Transação não reconhecida pelo portador', 'FRAUDE'],
  ['4853', 'Mercadoria não recebida', 'DESACORDO_COMERCIAL'],
  ['4834', 'Processamento duplicado', 'PROCESSAMENTO'],
  ['10.4', 'Fraude em ambiente sem cartão presente', 'FRAUDE'],
];
const PROCESSES = ['PRIMEIRO_CHARGEBACK', 'PRIMEIRO_CHARGEBACK', 'PRE_ARBITRAGEM', 'COBRANCA_AMIGAVEL'];

/** A small PDF whose bytes cover every value 0-255 and span several network chunks. */
function issuerPdf(random: () => number, size: number): Buffer {
  const head = Buffer.from(
    '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages ' +
      '/Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R >> endobj\n4 0 obj << /Length ' +
      size +
      ' >>\nstream\n',
    'latin1',
  );
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = i < 256 ? i : Math.floor(random() * 256);
  return Buffer.concat([head, body, Buffer.from('\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1')]);
}

function issuerJpeg(random: () => number, size: number): Buffer {
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = Math.floor(random() * 256);
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), body, Buffer.from([0xff, 0xd9])]);
}

function newCase(establishmentNumber: string, random: () => number, receivedDaysAgo: number): SandboxCase {
  const [cardAssociationCode, cardAssociationName] = BRANDS[Math.floor(random() * BRANDS.length)];
  const [reasonCode, reasonDescription, tpReason] = REASONS[Math.floor(random() * REASONS.length)];
  const idCase = nextCase++;
  const idChargeback = nextChargeback++;
  const receptionDate = day(-receivedDaysAgo);
  const owner: SandboxCase = {
    idCase,
    idChargeback,
    establishmentNumber,
    process: PROCESSES[Math.floor(random() * PROCESSES.length)],
    reasonCode,
    reasonDescription,
    tpReason,
    receptionDate,
    treatmentDeadline: day(15 - receivedDaysAgo),
    transactionAmount: Math.round(random() * 200_000 + 1_000) / 100,
    transactionDate: day(-receivedDaysAgo - 20 - Math.floor(random() * 40)),
    cardAssociationCode,
    cardAssociationName,
    truncatedCard:
      `${400000 + Math.floor(random() * 99999)}******` + String(Math.floor(random() * 10000)).padStart(4, '0'),
    nsu: String(Math.floor(random() * 1e9)).padStart(9, '0'),
    tid: String(Math.floor(random() * 1e15)).padStart(20, '0'),
    authorization: String(Math.floor(random() * 1e6)).padStart(6, '0'),
    handled: null,
    lifecycle: [],
    issuerDocuments: [],
    supportDocuments: [],
  };
  const pdf: IssuerDocument = {
    idDocumento: nextDocument++,
    nameFile: `carta_emissor_${idCase}.pdf`,
    contentType: 'application/pdf',
    bytes: issuerPdf(random, 150_000 + Math.floor(random() * 100_000)),
  };
  owner.issuerDocuments.push(pdf);
  if (random() < 0.5) {
    owner.issuerDocuments.push({
      idDocumento: nextDocument++,
      nameFile: `comprovante_${idCase}.jpeg`,
      contentType: 'image/jpeg',
      bytes: issuerJpeg(random, 40_000),
    });
  }
  for (const document of owner.issuerDocuments) documents.set(document.idDocumento, { document, owner });
  cases.set(idChargeback, owner);
  return owner;
}

/** Every establishment has cases the first time it is seen: 4 pending, 3 handled. */
function casesOf(establishmentNumber: string): SandboxCase[] {
  let list = casesByEstablishment.get(establishmentNumber);
  if (!list) {
    const random = prng(establishmentNumber);
    list = [];
    for (let i = 0; i < 7; i++) {
      const c = newCase(establishmentNumber, random, 1 + i * 3);
      if (i >= 4) {
        c.handled = { actionTakenCode: i === 4 ? 'ACEITO' : 'RECUSADO', replyDate: day(-i) };
        c.lifecycle.push({ action: i === 4 ? 'A favor do Emissor' : 'Em análise com o Emissor', actionDate: day(-i) });
      }
      list.push(c);
    }
    casesByEstablishment.set(establishmentNumber, list);
  }
  return list;
}

function consultItem(c: SandboxCase): Record<string, unknown> {
  if (c.announced) return { ...c.announced, ...(c.handled ? { actionTakenCode: c.handled.actionTakenCode } : {}) };
  const remaining = Math.max(0, Math.round((Date.parse(c.treatmentDeadline) - Date.parse(day(0))) / 86_400_000));
  const last = c.lifecycle[c.lifecycle.length - 1];
  return {
    idCase: c.idCase,
    idChargeback: c.idChargeback,
    establishmentNumber: Number(c.establishmentNumber),
    process: c.process,
    treatmentDeadline: c.treatmentDeadline,
    remainingDaysToTreat: remaining,
    lifecycle: last ? { action: last.action, actionDate: last.actionDate } : {},
    transactionAmount: c.transactionAmount,
    ...(c.handled ? { actionTakenCode: c.handled.actionTakenCode } : {}),
    transactionDetails: {
      transactionDate: c.transactionDate,
      authorization: c.authorization,
      cardAssociation: c.cardAssociationCode,
      cardAssociationName: c.cardAssociationName,
      productCode: 1,
      productDescription: 'CREDITO A VISTA',
      issuerSenderCode: 341,
      issuerSenderDescription: 'BANCO EMISSOR SA',
      truncatedCard: c.truncatedCard,
      currency: 'BRL',
      referenceNumber: `7${c.nsu}${c.idChargeback}`,
      nsu: c.nsu,
      ro: String(c.idCase).slice(-6),
      terminal: 'EC000001',
      tid: c.tid,
      establishmentName: `LOJA ${c.establishmentNumber}`,
    },
    chargebackDetails: {
      reasonCode: c.reasonCode,
      reasonDescription: c.reasonDescription,
      tpReason: c.tpReason,
      reasonMessage: '',
      receptionDate: c.receptionDate,
      replyDate: c.handled?.replyDate ?? null,
      rapidDisputeResolution: false,
      issuerDocument: c.issuerDocuments.map(({ idDocumento, nameFile }) => ({ idDocumento, nameFile })),
    },
  };
}

// --- rules -------------------------------------------------------------------------------------------

class AcquirerAnswer extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (code: string, message: string) => new AcquirerAnswer(400, code, message);
const retryLater = () => new AcquirerAnswer(500, '901', 'Erro ao processar a solicitação, tente novamente mais tarde');
const mismatch = (code = '902') =>
  new AcquirerAnswer(403, code, 'Caso ou chargeback não pertence ao estabelecimento informado');
const alreadyHandled = () => new AcquirerAnswer(412, '931', 'Chargeback já tratado');

const numeric = (value: unknown) =>
  (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^\d+$/.test(value));

function handler(fn: (req: Request, res: Response) => unknown) {
  return async (req: Request, res: Response) => {
    try {
      await fn(req, res);
    } catch (error) {
      if (error instanceof AcquirerAnswer) res.status(error.status).json({ code: error.code, message: error.message });
      else res.status(500).json({ code: '918', message: 'Falha interna' });
    }
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Establishments whose consult shows a pending chargeback for any case it is asked about, its
 * chargeback id the case number plus the offset (control /echo-establishment): a load test's
 * notices are then confirmed without announcing each one first.
 */
const echoEstablishments = new Map<string, number>();

function echoedCase(ec: string, idCase: unknown): void {
  const offset = echoEstablishments.get(ec);
  if (offset === undefined || !numeric(idCase) || casesOf(ec).some((c) => String(c.idCase) === String(idCase))) return;
  caseUnder(ec, `${ec}:${idCase}`, { idCase: Number(idCase), idChargeback: Number(idCase) + offset });
}

function consult(req: Request): Record<string, unknown> {
  const status = req.params.status;
  if (status !== 'PENDING' && status !== 'DONE') throw invalid('919', 'Status obrigatório: PENDING ou DONE');
  const q = req.query as Record<string, string | undefined>;
  const page = q.page === undefined ? 0 : Number(q.page);
  const pageSize = q.pageSize === undefined ? 200 : Number(q.pageSize);
  if (!Number.isInteger(page) || page < 0) throw invalid('916', 'Página deve ser maior ou igual a 0');
  if (!Number.isInteger(pageSize) || pageSize < 1) throw invalid('917', 'Tamanho da página deve ser maior que 0');
  if (pageSize > 200) throw invalid('138', 'Tamanho da página maior que 200');
  const orderBy = q.orderBy ?? 'receptionDate';
  if (orderBy !== 'receptionDate' && orderBy !== 'treatmentDeadline') throw invalid('933', 'orderBy inválido');
  const order = q.Order ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw invalid('934', 'Order inválido');
  const filter = (req.body ?? {}) as Record<string, any>;
  const establishments: unknown[] = Array.isArray(filter.establishmentNumber)
    ? filter.establishmentNumber
    : filter.establishmentNumber !== undefined
      ? [filter.establishmentNumber]
      : [];
  if (establishments.some((ec) => !numeric(ec))) throw invalid('910', 'establishmentNumber deve ser numérico');
  if (!establishments.length && filter.mainCustomer === undefined)
    throw invalid('909', 'Estabelecimento ou cliente principal obrigatório');
  const ecs = establishments.map(String);
  if (ecs.includes(ALWAYS_FAILS)) throw retryLater();
  if (filter.tid !== undefined && String(filter.tid).length > 20) throw invalid('914', 'TID inválido');
  if (filter.cardAssociationCode !== undefined && !BRANDS.some(([code]) => code === Number(filter.cardAssociationCode)))
    throw invalid('932', 'Bandeira inválida');
  const start = filter.startNotificationPeriod;
  const end = filter.endNotificationPeriod;
  if (status === 'DONE') {
    if (start === undefined) throw invalid('920', 'startNotificationPeriod obrigatório para DONE');
    if (end === undefined) throw invalid('921', 'endNotificationPeriod obrigatório para DONE');
  }
  for (const date of [start, end])
    if (date !== undefined && (typeof date !== 'string' || !DATE.test(date) || Number.isNaN(Date.parse(date))))
      throw invalid('907', 'Data inválida (yyyy-MM-dd)');
  if (start && end) {
    if (start > end) throw invalid('922', 'Período inválido');
    if ((Date.parse(end) - Date.parse(start)) / 86_400_000 > 180) throw invalid('906', 'Período maior que 180 dias');
  }
  if (filter.idCase !== undefined && status === 'PENDING') for (const ec of ecs) echoedCase(ec, filter.idCase);
  let found = ecs.flatMap((ec) => (ec === ALWAYS_SUCCEEDS && String(filter.idCase) === '4000000' ? [] : casesOf(ec)));
  found = found.filter((c) => (status === 'PENDING' ? !c.handled : Boolean(c.handled)));
  if (start) found = found.filter((c) => c.receptionDate >= start);
  if (end) found = found.filter((c) => c.receptionDate <= end);
  if (filter.idCase !== undefined) found = found.filter((c) => String(c.idCase) === String(filter.idCase));
  if (filter.tid !== undefined) found = found.filter((c) => c.tid === String(filter.tid));
  if (filter.nsu !== undefined) found = found.filter((c) => c.nsu === String(filter.nsu));
  if (filter.cardAssociationCode !== undefined)
    found = found.filter((c) => c.cardAssociationCode === Number(filter.cardAssociationCode));
  if (Array.isArray(filter.reason) && filter.reason.length)
    found = found.filter((c) => filter.reason.map(String).includes(c.reasonCode));
  found.sort((a, b) => (order === 'asc' ? 1 : -1) * (a[orderBy].localeCompare(b[orderBy]) || a.idCase - b.idCase));
  const content = found.slice(page * pageSize, (page + 1) * pageSize).map(consultItem);
  const totalPages = Math.ceil(found.length / pageSize);
  const sort = { sorted: true, unsorted: false, empty: false };
  return {
    content,
    pageable: { sort, pageNumber: page, pageSize, offset: page * pageSize, paged: true, unpaged: false },
    last: page >= totalPages - 1,
    totalElements: found.length,
    totalPages,
    number: page,
    sort,
    first: page === 0,
    numberOfElements: content.length,
    size: pageSize,
    empty: content.length === 0,
  };
}

/** The case of a chargeback for an establishment: unknown ones are created on the spot ("anything else succeeds"). */
function caseFor(establishmentNumber: string, idChargeback: unknown): SandboxCase {
  casesOf(establishmentNumber);
  const known = cases.get(Number(idChargeback));
  if (known) {
    if (known.establishmentNumber !== establishmentNumber) throw mismatch();
    return known;
  }
  return caseUnder(establishmentNumber, `${establishmentNumber}:${idChargeback}`, {
    idChargeback: Number(idChargeback),
  });
}

/** A new case of an establishment under the ids given (the others generated), known to every operation. */
function caseUnder(
  establishmentNumber: string,
  seed: string,
  ids: { idCase?: number; idChargeback: number },
): SandboxCase {
  const created = newCase(establishmentNumber, prng(seed), 2);
  cases.delete(created.idChargeback);
  if (ids.idCase !== undefined) created.idCase = ids.idCase;
  created.idChargeback = ids.idChargeback;
  cases.set(created.idChargeback, created);
  casesOf(establishmentNumber).push(created);
  return created;
}

function accept(req: Request): unknown {
  const items = req.body?.updateChargeback;
  if (!Array.isArray(items) || !items.length) throw invalid('926', 'idChargeback obrigatório');
  for (const item of items) {
    if (!numeric(item?.establishmentNumber)) throw invalid('910', 'establishmentNumber deve ser numérico');
    if (item.idChargeback === undefined || item.idChargeback === '') throw invalid('926', 'idChargeback obrigatório');
    if (!numeric(item.idChargeback)) throw invalid('911', 'idChargeback deve ser numérico');
  }
  if (items.some((item: any) => String(item.establishmentNumber) === ALWAYS_FAILS)) throw retryLater();
  const targets = items.map((item: any) => ({
    item,
    c:
      String(item.establishmentNumber) === ALWAYS_SUCCEEDS
        ? null
        : caseFor(String(item.establishmentNumber), item.idChargeback),
  }));
  for (const { c } of targets) if (c?.handled) throw alreadyHandled();
  return targets.map(({ item, c }: { item: any; c: SandboxCase | null }) => {
    if (c) {
      c.handled = { actionTakenCode: 'ACEITO', replyDate: day(0) };
      c.lifecycle.push({ action: 'Em análise com o Emissor', actionDate: day(0) });
    }
    return {
      establishmentNumber: Number(item.establishmentNumber),
      idChargeback: Number(item.idChargeback),
      code: '101',
      message: 'Chargeback aceito com sucesso',
    };
  });
}

function sniff(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 5).toString('latin1');
  return (
    head.startsWith('II*\0') ||
    head.startsWith('MM\0*') ||
    head === '%PDF-' ||
    (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
  );
}

function refuse(req: Request): unknown {
  const body = (req.body ?? {}) as Record<string, any>;
  stats.lastRefuse = { ...body, file: typeof body.file === 'string' ? `${body.file.length} base64 chars` : body.file };
  if (body.establishmentNumber === undefined) throw invalid('909', 'Estabelecimento obrigatório');
  if (!numeric(body.establishmentNumber)) throw invalid('910', 'establishmentNumber deve ser numérico');
  if (body.idChargeback === undefined || body.idChargeback === '') throw invalid('926', 'idChargeback obrigatório');
  if (typeof body.reasonToRefuse !== 'string' || !body.reasonToRefuse.trim())
    throw invalid('930', 'Motivo da recusa obrigatório');
  if (body.reasonToRefuse.length > 100) throw invalid('905', 'Motivo da recusa maior que 100 caracteres');
  if (typeof body.file !== 'string' || !body.file) throw invalid('904', 'Documento obrigatório');
  const bytes = Buffer.from(body.file, 'base64');
  if (!sniff(bytes) || bytes.length > 8 * 1024 * 1024) throw invalid('903', 'Documento inválido');
  if (
    body.IdCase !== undefined &&
    typeof body.fileName === 'string' &&
    body.fileName.replace(/\.[^.]*$/, '') !== String(body.IdCase)
  ) {
    throw invalid('929', 'Nome do arquivo diferente do número do caso');
  }
  const ec = String(body.establishmentNumber);
  if (ec === ALWAYS_FAILS) throw retryLater();
  if (ec !== ALWAYS_SUCCEEDS) {
    const c = caseFor(ec, body.idChargeback);
    if (body.IdCase !== undefined && String(body.IdCase) !== String(c.idCase)) throw mismatch('941');
    if (c.handled) throw alreadyHandled();
    c.handled = { actionTakenCode: 'RECUSADO', replyDate: day(0) };
    c.lifecycle.push({ action: 'Em análise com o Emissor', actionDate: day(0) });
    c.supportDocuments.push({
      dateInclusion: day(0),
      nameFile: String(body.fileName ?? `${c.idCase}.pdf`),
      file: body.file,
    });
  }
  return { code: '102', message: 'Chargeback recusado com sucesso' };
}

function lifecycleOf(req: Request): unknown {
  const idCase = String(req.params.idCase);
  if (idCase === '30000') throw retryLater();
  const c = [...cases.values()].find((x) => String(x.idCase) === idCase);
  if (c?.establishmentNumber === ALWAYS_FAILS) throw retryLater();
  return (c?.lifecycle ?? []).map((step) => ({
    action: step.action,
    actionDate: step.actionDate,
    ...(step.anonymous ? {} : { establishmentNumber: Number(c!.establishmentNumber) }),
    caseId: c!.idCase,
    message: step.action,
    executionDate: step.actionDate,
    ActionCicleDate: step.actionDate,
  }));
}

function ownedCase(req: Request): SandboxCase {
  const ec = String(req.params.establishmentNumber);
  if (ec === ALWAYS_FAILS) throw retryLater();
  casesOf(ec);
  const c = cases.get(Number(req.params.idChargeback));
  if (!c) throw invalid('938', 'Chargeback não encontrado');
  if (c.establishmentNumber !== ec) throw mismatch();
  return c;
}

async function downloadDocument(req: Request, res: Response): Promise<void> {
  const ec = String(req.params.establishmentNumber);
  if (ec === ALWAYS_FAILS) throw retryLater();
  casesOf(ec);
  const found = documents.get(Number(req.params.idDocumento));
  if (!found) throw invalid('938', 'Documento do emissor não encontrado');
  if (found.owner.establishmentNumber !== ec) throw mismatch();
  const { bytes, contentType, nameFile } = found.document;
  res.status(200).set({
    'Content-Type': contentType,
    'Content-Disposition': `attachment; filename="${nameFile}"`,
    'Content-Length': String(bytes.length),
  });
  const gate = gates.get(found.document.idDocumento);
  if (gate) {
    // Held: the first part goes out now, the rest when the test opens the gate (proves we stream).
    const half = Math.floor(bytes.length / 2);
    res.write(bytes.subarray(0, half));
    await gate.opened;
    res.end(bytes.subarray(half));
    return;
  }
  res.end(bytes);
}

function supportDocumentOf(req: Request): unknown {
  if (String(req.params.establishmentNumber) === ALWAYS_SUCCEEDS && String(req.params.idChargeback) === '20000') {
    return [
      {
        dateInclusion: day(0),
        nameFile: '20000.pdf',
        codigo: 104,
        mensagem: 'Documento de defesa',
        file: issuerPdf(prng('20000'), 1000).toString('base64'),
      },
    ];
  }
  const c = ownedCase(req);
  if (!c.supportDocuments.length) throw invalid('927', 'Documento de defesa não encontrado');
  return c.supportDocuments.map((d) => ({ ...d, codigo: 104, mensagem: 'Documento de defesa' }));
}

// --- transport: auth, faults -------------------------------------------------------------------------

/** Establishment numbers a request names (path or body), for targeted faults. */
function establishmentsIn(req: Request): string[] {
  const found: string[] = [];
  const path = /\/(?:ListIssuerDocuments|DocumentIssuer|supportDocument)\/(\d+)\//.exec(req.path);
  if (path) found.push(path[1]);
  const body = (req.body ?? {}) as Record<string, any>;
  for (const ec of [body.establishmentNumber].flat()) if (ec !== undefined) found.push(String(ec));
  if (Array.isArray(body.updateChargeback))
    for (const item of body.updateChargeback) found.push(String(item?.establishmentNumber));
  return found;
}

function applyFault(req: Request, res: Response): boolean {
  const mode =
    faults.get('*') ??
    establishmentsIn(req)
      .map((ec) => faults.get(ec))
      .find(Boolean);
  if (mode === 'reset') {
    req.socket.destroy();
    return true;
  }
  if (mode === 'hang') {
    res.on('close', () => undefined); // never answered; the caller's timeout ends it
    return true;
  }
  return false;
}

function requireToken(req: Request, res: Response, next: () => void): void {
  stats.apiCalls++;
  if (applyFault(req, res)) return;
  const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
  const expiresAt = match ? tokens.get(match[1]) : undefined;
  if (!expiresAt || expiresAt < Date.now()) {
    res.status(401).json({ error: 'invalid_token', error_description: 'Token inválido ou expirado' });
    return;
  }
  next();
}

function issueToken(req: Request, res: Response): void {
  stats.tokenRequests++;
  const { clientId, clientSecret } = getConfig().acquirer.chargeback;
  const body = (req.body ?? {}) as Record<string, string>;
  if (body.grant_type !== 'client_credentials') {
    res.status(400).json({ error: 'unsupported_grant_type' });
    return;
  }
  const same = (given: unknown, secret: string) => typeof given === 'string' && safeEqual(given, secret);
  if (!clientId || !clientSecret || !same(body.client_id, clientId) || !same(body.client_secret, clientSecret)) {
    res.status(401).json({ error: 'invalid_client', error_description: 'Invalid client credentials' });
    return;
  }
  const token = crypto.randomBytes(24).toString('base64url');
  tokens.set(token, Date.now() + TOKEN_LIFETIME_SECONDS * 1000);
  stats.tokensIssued++;
  res.json({
    access_token: token,
    expires_in: TOKEN_LIFETIME_SECONDS,
    refresh_expires_in: 0,
    token_type: 'Bearer',
    'not-before-policy': 0,
    scope: 'chargeback',
  });
}

// --- notifications to us -----------------------------------------------------------------------------

const FINAL = { win: 'A favor do Estabelecimento', loss: 'A favor do Emissor' } as const;

/** Builds a notice of one kind, updates the sandbox's own case to match, and POSTs it to our intake. */
async function notify(req: Request): Promise<unknown> {
  const body = (req.body ?? {}) as Record<string, any>;
  const kind = String(body.kind);
  const ec = String(body.establishmentNumber ?? '');
  if (!/^\d+$/.test(ec)) throw invalid('910', 'establishmentNumber deve ser numérico');
  let notice: Record<string, unknown>;
  if (kind === 'new') {
    const c = newCase(ec, prng(`${ec}:notice:${nextCase}`), Number(body.receivedDaysAgo ?? 0));
    casesOf(ec).push(c);
    notice = consultItem(c);
  } else if (kind === 'lifecycle' || kind === 'win' || kind === 'loss') {
    const c = [...cases.values()].find((x) => String(x.idCase) === String(body.caseId));
    const date = typeof body.date === 'string' ? body.date : day(0);
    const message = kind === 'lifecycle' ? String(body.message ?? 'Em análise com o Emissor') : FINAL[kind];
    c?.lifecycle.push({ action: message, actionDate: date });
    notice = {
      establishmentNumber: Number(ec),
      caseId: Number(body.caseId),
      message,
      executionDate: date,
      ActionCicleDate: date,
    };
  } else {
    throw invalid('919', 'kind must be new, lifecycle, win or loss');
  }
  const target = `${getConfig().sandbox.notifyUrl}${CHARGEBACK_NOTICE_PATH}`;
  const secret = typeof body.secret === 'string' ? body.secret : getConfig().acquirer.chargeback.notificationSecret;
  const response = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CHARGEBACK_NOTICE_SECRET_HEADER]: secret },
    body: JSON.stringify(notice),
  });
  return { notice, delivered: { status: response.status, body: await response.text() } };
}

// --- router ------------------------------------------------------------------------------------------

function chargebackRouter(): Router {
  const router = Router();
  router.post('/oauth/v2/:realm/protocol/openid-connect/token', express.urlencoded({ extended: false }), issueToken);

  const api = Router();
  api.use(requireToken);
  api.put(
    '/accept',
    handler((req, res) => res.json(accept(req))),
  );
  api.put(
    '/laccept',
    handler((req, res) => res.json(accept(req))),
  ); // the overview's typo, kept as an alias
  api.put(
    '/refuse',
    handler((req, res) => res.json(refuse(req))),
  );
  api.get(
    '/lifecycle/:idCase',
    handler((req, res) => res.json(lifecycleOf(req))),
  );
  api.get(
    '/ListIssuerDocuments/:establishmentNumber/:idChargeback',
    handler((req, res) => {
      res.json(ownedCase(req).issuerDocuments.map(({ idDocumento, nameFile }) => ({ idDocumento, nameFile })));
    }),
  );
  api.get('/DocumentIssuer/:establishmentNumber/:idDocumento', handler(downloadDocument));
  api.get(
    '/supportDocument/:establishmentNumber/:idChargeback',
    handler((req, res) => res.json(supportDocumentOf(req))),
  );
  api.post(
    '/:status',
    handler((req, res) => res.json(consult(req))),
  );
  router.use(API, api);

  const control = Router();
  control.post('/fault', (req, res) => {
    const { mode, establishmentNumber } = (req.body ?? {}) as { mode?: string; establishmentNumber?: string };
    const key = establishmentNumber ? String(establishmentNumber) : '*';
    if (mode === 'hang' || mode === 'reset') faults.set(key, mode);
    else if (mode === 'refuse')
      faults.set(key, 'reset'); // the closest a listening server gets to refusing a connection
    else faults.delete(key);
    res.json({ faults: Object.fromEntries(faults) });
  });
  control.post('/revoke-tokens', (_req, res) => {
    const revoked = tokens.size;
    tokens.clear();
    res.json({ revoked });
  });
  control.get('/stats', (_req, res) => {
    res.json(stats);
  });
  control.get('/cases/:establishmentNumber', (req, res) => {
    res.json(
      casesOf(String(req.params.establishmentNumber)).map((c) => ({
        ...consultItem(c),
        handled: c.handled,
        lifecycleSteps: c.lifecycle,
      })),
    );
  });
  control.get('/documents/:idDocumento', (req, res) => {
    const found = documents.get(Number(req.params.idDocumento));
    if (!found) res.status(404).end();
    else
      res.json({
        nameFile: found.document.nameFile,
        contentType: found.document.contentType,
        base64: found.document.bytes.toString('base64'),
      });
  });
  control.post('/gate', (req, res) => {
    const idDocumento = Number(req.body?.idDocumento);
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    gates.set(idDocumento, { opened, open });
    res.json({ gated: idDocumento });
  });
  control.post('/gate/:idDocumento/open', (req, res) => {
    const idDocumento = Number(req.params.idDocumento);
    gates.get(idDocumento)?.open();
    gates.delete(idDocumento);
    res.json({ opened: idDocumento });
  });
  // A new chargeback the acquirer registered without notifying us (tests post the notice themselves): the body is
  // its consult item, served as given; its ids are the item's.
  control.post('/chargeback', (req, res) => {
    const item = (req.body ?? {}) as Record<string, any>;
    const ec = String(item.establishmentNumber);
    const ids = { idCase: Number(item.idCase), idChargeback: Number(item.idChargeback) };
    // A case a lifecycle step made up first is this chargeback's: it keeps its steps (a new one would drop them).
    const known = cases.get(ids.idChargeback);
    const c =
      known && known.establishmentNumber === ec && known.idCase === ids.idCase
        ? known
        : caseUnder(ec, `${ec}:${item.idChargeback}`, ids);
    if (typeof item.treatmentDeadline === 'string') c.treatmentDeadline = item.treatmentDeadline;
    if (typeof item.chargebackDetails?.receptionDate === 'string')
      c.receptionDate = item.chargebackDetails.receptionDate;
    c.announced = item;
    res.json(consultItem(c));
  });
  control.post('/echo-establishment', (req, res) => {
    const { establishmentNumber, idChargebackOffset } = (req.body ?? {}) as Record<string, unknown>;
    if (!numeric(establishmentNumber) || !Number.isSafeInteger(idChargebackOffset))
      return void res.status(400).json({ detail: 'establishmentNumber (digits) and idChargebackOffset (integer)' });
    echoEstablishments.set(String(establishmentNumber), idChargebackOffset as number);
    res.json({ echoing: String(establishmentNumber) });
  });
  control.post(
    '/notify',
    handler(async (req, res) => res.json(await notify(req))),
  );
  // A lifecycle step the acquirer decided, without notifying us (tests post the notice themselves).
  // An unknown case is created for the establishment under the given case and chargeback ids.
  // `anonymous`: the step is served without its establishment number.
  control.post('/lifecycle-step', (req, res) => {
    const { establishmentNumber, caseId, idChargeback, message, date, anonymous } = (req.body ?? {}) as Record<
      string,
      unknown
    >;
    const ec = String(establishmentNumber);
    const c =
      [...cases.values()].find((x) => String(x.idCase) === String(caseId)) ??
      caseUnder(ec, `${ec}:${caseId}`, {
        idCase: Number(caseId),
        idChargeback: Number(idChargeback ?? Number(caseId) + 10_000_000),
      });
    c.lifecycle.push({
      action: String(message),
      actionDate: String(date),
      ...(anonymous === true ? { anonymous } : {}),
    });
    res.json({ idCase: c.idCase, establishmentNumber: c.establishmentNumber, lifecycle: c.lifecycle });
  });
  router.use(CONTROL, control);
  return router;
}

export const chargebackSandboxArea: SandboxArea = { name: 'chargebacks', router: chargebackRouter };
