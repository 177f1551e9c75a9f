/** The checkout page and its static assets, read once from src/checkout/public and kept in memory. */
import fs from 'node:fs';
import path from 'node:path';

const PUBLIC_DIR = path.join(__dirname, 'public');

/** Served files: name -> [absolute path, content type]. Nothing else under /checkout/assets/ exists. */
export const ASSETS: Record<string, [string, string]> = {
  'checkout.js': [path.join(PUBLIC_DIR, 'checkout.js'), 'text/javascript; charset=utf-8'],
  'checkout.css': [path.join(PUBLIC_DIR, 'checkout.css'), 'text/css; charset=utf-8'],
  // The PIX view (QR code, copy-and-paste, countdown) both pages use.
  'pix-view.js': [path.join(PUBLIC_DIR, 'pix-view.js'), 'text/javascript; charset=utf-8'],
  'pix-automatico.js': [path.join(PUBLIC_DIR, 'pix-automatico.js'), 'text/javascript; charset=utf-8'],
  // node-forge's browser bundle: RSAES-PKCS1-v1_5, which WebCrypto lacks.
  'forge.min.js': [require.resolve('node-forge/dist/forge.min.js'), 'text/javascript; charset=utf-8'],
};

const assetCache = new Map<string, Buffer>();
export function readAsset(file: string): Buffer {
  let content = assetCache.get(file);
  if (!content) {
    content = fs.readFileSync(ASSETS[file][0]);
    assetCache.set(file, content);
  }
  return content;
}

let page: Buffer | undefined;
export function readPage(): Buffer {
  page ??= fs.readFileSync(path.join(PUBLIC_DIR, 'index.html'));
  return page;
}

let mandatePage: Buffer | undefined;
/** The payer's authorisation page of a Pix Automático mandate. */
export function readMandatePage(): Buffer {
  mandatePage ??= fs.readFileSync(path.join(PUBLIC_DIR, 'pix-automatico.html'));
  return mandatePage;
}
