/** Evidence documents for refusal tests, built byte by byte. */
import zlib from 'node:zlib';

/** A PDF with `pages` page objects; `packed` puts them in a compressed object stream (PDF 1.5). */
export function pdfWithPages(pages: number, packed = false): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  const pageObjects = Array.from(
    { length: pages },
    (_, i) => `${i + 3} 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj\n`,
  ).join('');
  const head =
    `%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages ` +
    `/Kids [${kids}] /Count ${pages} >> endobj\n`;
  if (!packed) return Buffer.from(`${head}${pageObjects}trailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');
  const packedBytes = zlib.deflateSync(Buffer.from(pageObjects, 'latin1'));
  return Buffer.concat([
    Buffer.from(
      `${head}99 0 obj << /Type /ObjStm /N ${pages} /First 0 /Filter /FlateDecode /Length ` +
        `${packedBytes.length} >>\nstream\n`,
      'latin1',
    ),
    packedBytes,
    Buffer.from('\nendstream\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1'),
  ]);
}

/** A TIFF whose directory chain has `pages` entries; `loop` makes the last point back at the first. */
export function tiffWithPages(pages: number, order: 'II' | 'MM' = 'II', loop = false): Buffer {
  const ifdSize = 2 + 12 + 4;
  const buffer = Buffer.alloc(8 + pages * ifdSize);
  const little = order === 'II';
  const u16 = (value: number, at: number) =>
    little ? buffer.writeUInt16LE(value, at) : buffer.writeUInt16BE(value, at);
  const u32 = (value: number, at: number) =>
    little ? buffer.writeUInt32LE(value, at) : buffer.writeUInt32BE(value, at);
  buffer.write(order, 0, 'latin1');
  u16(42, 2);
  u32(8, 4);
  for (let i = 0; i < pages; i++) {
    const at = 8 + i * ifdSize;
    u16(1, at); // one entry: ImageWidth
    u16(256, at + 2);
    u16(3, at + 4);
    u32(1, at + 6);
    u32(100, at + 10);
    const next = i === pages - 1 ? (loop ? 8 : 0) : at + ifdSize;
    u32(next, at + 14);
  }
  return buffer;
}

export function jpeg(size = 2000): Buffer {
  const body = Buffer.alloc(size, 0x42);
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), body, Buffer.from([0xff, 0xd9])]);
}

export const b64 = (bytes: Buffer) => bytes.toString('base64');

/** A refusal body of chargeback `idChargeback` of case `idCase` at `ec`, with a one-page PDF as evidence. */
export function refusalWithPdf(ec: string, ids: { idChargeback: number; idCase: number }) {
  return {
    establishmentNumber: Number(ec),
    idChargeback: ids.idChargeback,
    IdCase: String(ids.idCase),
    reasonToRefuse: 'Entregue',
    file: b64(pdfWithPages(1)),
    fileName: `${ids.idCase}.pdf`,
  };
}
