import '../helpers/env';
import test from 'ava';
import {
  checkEvidence,
  pdfPageCount,
  tiffPageCount,
  sniffType,
  MAX_EVIDENCE_BYTES,
} from '../../src/chargebacks/evidence';
import { b64, jpeg, pdfWithPages, tiffWithPages } from './files';

const check = (bytes: Buffer, fileName: string, IdCase = '5000123') =>
  checkEvidence({ file: b64(bytes), fileName, IdCase });

test('each allowed type passes with a matching name', (t) => {
  t.deepEqual(check(pdfWithPages(3), '5000123.pdf').evidence, { type: 'PDF', bytes: pdfWithPages(3).length, pages: 3 });
  t.is(check(tiffWithPages(2), '5000123.tif').evidence?.type, 'TIFF');
  t.is(check(tiffWithPages(2, 'MM'), '5000123.TIFF').evidence?.pages, 2);
  t.is(check(jpeg(), '5000123.jpeg').evidence?.type, 'JPEG');
});

test('magic bytes decide the type', (t) => {
  t.is(sniffType(Buffer.from('II*\0rest')), 'TIFF');
  t.is(sniffType(Buffer.from('MM\0*rest')), 'TIFF');
  t.is(sniffType(Buffer.from('%PDF-1.7')), 'PDF');
  t.is(sniffType(Buffer.from([0xff, 0xd8, 0xff, 0xdb])), 'JPEG');
  t.is(sniffType(Buffer.from('GIF89a')), null);
  t.is(sniffType(Buffer.from('%PDF')), null);
});

test('a png renamed to pdf is refused by content', (t) => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
  const { errors } = check(png, '5000123.pdf');
  t.regex(errors.file[0], /Document type rule: the content is not a TIFF, PDF or JPEG/);
});

test('an extension that disagrees with the content is refused', (t) => {
  t.regex(check(jpeg(), '5000123.pdf').errors.fileName[0], /extension \.pdf does not match the content, which is JPEG/);
  t.regex(check(pdfWithPages(1), '5000123.tiff').errors.fileName[0], /does not match the content, which is PDF/);
});

test('an extension outside the list is refused', (t) => {
  t.regex(check(jpeg(), '5000123.jpg').errors.fileName[0], /must end in \.tif, \.tiff, \.pdf, \.jpeg/);
  t.regex(check(jpeg(), '5000123').errors.fileName[0], /must end in/);
});

test('the name without its extension must equal IdCase', (t) => {
  const { errors } = check(pdfWithPages(1), 'defesa.pdf');
  t.deepEqual(errors.fileName, [
    'Document name rule: the name without its extension must equal IdCase (expected 5000123.pdf).',
  ]);
  t.regex(check(pdfWithPages(1), '5000124.pdf').errors.fileName[0], /Document name rule/);
});

test('more than 8 mb decoded is refused, exactly 8 mb passes', (t) => {
  const exact = Buffer.alloc(MAX_EVIDENCE_BYTES, 0x20);
  jpeg().copy(exact, 0, 0, 4);
  t.truthy(check(exact, '5000123.jpeg').evidence);
  const over = Buffer.alloc(MAX_EVIDENCE_BYTES + 1, 0x20);
  jpeg().copy(over, 0, 0, 4);
  t.regex(check(over, '5000123.jpeg').errors.file[0], /Size rule: the document is 8388609 bytes decoded; at most 8 MB/);
});

test('more than 10 pages is refused for pdf and tiff', (t) => {
  t.truthy(check(pdfWithPages(10), '5000123.pdf').evidence);
  t.regex(check(pdfWithPages(11), '5000123.pdf').errors.file[0], /Page rule: the document has 11 pages; at most 10/);
  t.truthy(check(tiffWithPages(10), '5000123.tif').evidence);
  t.regex(check(tiffWithPages(11), '5000123.tif').errors.file[0], /Page rule: the document has more than 10 pages/);
});

test('pdf pages count page objects, not the page tree, and look inside object streams', (t) => {
  t.is(pdfPageCount(pdfWithPages(4)), 4);
  t.is(pdfPageCount(pdfWithPages(12, true)), 12);
  t.is(pdfPageCount(Buffer.from('%PDF-1.4\n1 0 obj << /Type /Pages /Count 3 >> endobj\n')), null);
});

test('a tiff whose directory chain loops or leaves the file is refused', (t) => {
  t.is(tiffPageCount(tiffWithPages(3, 'II', true)), null);
  const truncated = tiffWithPages(3).subarray(0, 20);
  t.is(tiffPageCount(truncated), null);
  t.regex(
    check(tiffWithPages(2, 'MM', true), '5000123.tif').errors.file[0],
    /Page rule: the pages of this TIFF could not be counted/,
  );
});

test('not base64 is refused', (t) => {
  const { errors } = checkEvidence({ file: 'not base64!!', fileName: '5000123.pdf', IdCase: '5000123' });
  t.deepEqual(errors.file, ['Encoding rule: the document must be base64 encoded.']);
});

test('several broken rules are reported together', (t) => {
  const { errors } = check(jpeg(), 'other.pdf');
  t.deepEqual(Object.keys(errors), ['fileName']);
  t.is(errors.fileName.length, 2);
});
