/**
 * The acquirer's rules for a refusal document, checked here before any acquirer call so the
 * merchant learns which rule failed: TIFF, PDF or JPEG by content (the extension must agree), at
 * most 8 MB decoded, at most 10 pages, and the document name equal to the case id (IdCase).
 *
 * Decision: the name is `<IdCase>.<extension>`; the part before the extension must equal IdCase.
 */
import zlib from 'node:zlib';
import type { FieldErrors } from '../platform/errors';

export const MAX_EVIDENCE_BYTES = 8 * 1024 * 1024;
export const MAX_EVIDENCE_PAGES = 10;

export type EvidenceType = 'TIFF' | 'PDF' | 'JPEG';

const EXTENSIONS: Record<string, EvidenceType> = { tif: 'TIFF', tiff: 'TIFF', pdf: 'PDF', jpeg: 'JPEG' };
export const ALLOWED_EXTENSIONS = Object.keys(EXTENSIONS).map((e) => `.${e}`);

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The real type, from the first bytes. */
export function sniffType(bytes: Buffer): EvidenceType | null {
  if (bytes.length >= 4 && bytes[0] === 0x49 && bytes[1] === 0x49 && bytes[2] === 0x2a && bytes[3] === 0x00)
    return 'TIFF';
  if (bytes.length >= 4 && bytes[0] === 0x4d && bytes[1] === 0x4d && bytes[2] === 0x00 && bytes[3] === 0x2a)
    return 'TIFF';
  if (bytes.length >= 5 && bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'PDF';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'JPEG';
  return null;
}

/**
 * Number of image file directories (pages) in a TIFF; null when the chain is broken or loops. Stops counting past
 * `stopAfter`.
 */
export function tiffPageCount(bytes: Buffer, stopAfter = MAX_EVIDENCE_PAGES + 1): number | null {
  const little = bytes[0] === 0x49;
  const u16 = (at: number) => (little ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at));
  const u32 = (at: number) => (little ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
  if (bytes.length < 8) return null;
  let offset = u32(4);
  const seen = new Set<number>();
  let pages = 0;
  while (offset !== 0) {
    if (offset < 8 || offset + 2 > bytes.length || seen.has(offset)) return null;
    seen.add(offset);
    pages++;
    if (pages >= stopAfter) return pages;
    const next = offset + 2 + 12 * u16(offset);
    if (next + 4 > bytes.length) return null;
    offset = u32(next);
  }
  return pages || null;
}

/** `/Type /Page` objects, not `/Type /Pages` tree nodes. */
const PAGE_OBJECT = /\/Type\s*\/Page(?![A-Za-z0-9#])/g;
const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

function countPageObjects(text: string): number {
  return text.match(PAGE_OBJECT)?.length ?? 0;
}

/**
 * Pages of a PDF: its `/Type /Page` objects, including those packed in compressed object streams
 * (PDF 1.5+). Null when none can be found.
 */
export function pdfPageCount(bytes: Buffer): number | null {
  const text = bytes.toString('latin1');
  let pages = countPageObjects(text);
  for (const match of text.matchAll(/\/Type\s*\/ObjStm(?![A-Za-z0-9#])/g)) {
    const streamAt = text.indexOf('stream', match.index);
    if (streamAt < 0) continue;
    let dataAt = streamAt + 'stream'.length;
    if (text[dataAt] === '\r') dataAt++;
    if (text[dataAt] === '\n') dataAt++;
    const endAt = text.indexOf('endstream', dataAt);
    if (endAt < 0) continue;
    try {
      const inflated = zlib.inflateSync(bytes.subarray(dataAt, endAt), {
        maxOutputLength: MAX_INFLATED_BYTES,
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
      });
      pages += countPageObjects(inflated.toString('latin1'));
    } catch {
      // not a Flate stream we can read: its objects stay uncounted
    }
  }
  return pages || null;
}

export interface EvidenceInput {
  /** base64 of the document */
  file: string;
  fileName: string;
  IdCase: string;
}

export interface CheckedEvidence {
  type: EvidenceType;
  bytes: number;
  pages: number;
}

/** Every refusal-document rule the input breaks, as a field map; empty when the document is acceptable. */
export function checkEvidence(input: EvidenceInput): { errors: FieldErrors; evidence?: CheckedEvidence } {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);

  const name = input.fileName.trim();
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const baseName = dot > 0 ? name.slice(0, dot) : name;
  const declaredType = EXTENSIONS[extension];
  if (!declaredType)
    fail('fileName', `Document type rule: the document name must end in ${ALLOWED_EXTENSIONS.join(', ')}.`);
  if (baseName !== input.IdCase) {
    const expected = `${input.IdCase}${declaredType ? `.${extension}` : '.pdf'}`;
    fail('fileName', `Document name rule: the name without its extension must equal IdCase (expected ${expected}).`);
  }

  const file = input.file.replace(/\s+/g, '');
  if (file.length % 4 !== 0 || !BASE64.test(file)) {
    fail('file', 'Encoding rule: the document must be base64 encoded.');
    return { errors };
  }
  const decodedLength = (file.length / 4) * 3 - (file.endsWith('==') ? 2 : file.endsWith('=') ? 1 : 0);
  if (decodedLength === 0) {
    fail('file', 'Document type rule: the document is empty.');
    return { errors };
  }
  if (decodedLength > MAX_EVIDENCE_BYTES) {
    fail(
      'file',
      `Size rule: the document is ${decodedLength} bytes decoded; at most 8 MB (${MAX_EVIDENCE_BYTES} bytes) ` +
        `is allowed.`,
    );
    return { errors };
  }
  const bytes = Buffer.from(file, 'base64');
  const type = sniffType(bytes);
  if (!type) {
    fail('file', 'Document type rule: the content is not a TIFF, PDF or JPEG file (checked by its first bytes).');
    return { errors };
  }
  if (declaredType && declaredType !== type) {
    fail('fileName', `Document type rule: the extension .${extension} does not match the content, which is ${type}.`);
  }
  const pages = type === 'JPEG' ? 1 : type === 'PDF' ? pdfPageCount(bytes) : tiffPageCount(bytes);
  if (pages === null) {
    fail(
      'file',
      `Page rule: the pages of this ${type} could not be counted, so the limit of ${MAX_EVIDENCE_PAGES} pages ` +
        `cannot be checked.`,
    );
  } else if (pages > MAX_EVIDENCE_PAGES) {
    fail(
      'file',
      `Page rule: the document has ${type === 'TIFF' && pages > MAX_EVIDENCE_PAGES ? 'more than 10' : pages} ` +
        `pages; at most ${MAX_EVIDENCE_PAGES} are allowed.`,
    );
  }
  if (Object.keys(errors).length) return { errors };
  return { errors, evidence: { type, bytes: bytes.length, pages: pages! } };
}
