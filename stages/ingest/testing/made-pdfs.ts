// PDFs made inside the tests with mupdf: page excerpts, encrypted copies and image-only scans.
import * as mupdf from 'mupdf';

function save(doc: mupdf.PDFDocument, options = ''): Uint8Array {
  const buf = doc.saveToBuffer(options);
  try {
    return buf.asUint8Array().slice();
  } finally {
    buf.destroy();
  }
}

/** A valid PDF with no pages at all. */
export function noPages(): Uint8Array {
  return save(new mupdf.PDFDocument());
}

/** A new PDF holding the given pages (0-based) of `bytes`. */
export function excerpt(bytes: Uint8Array, pages: number[]): Uint8Array {
  const src = new mupdf.PDFDocument(bytes);
  const out = new mupdf.PDFDocument();
  for (const p of pages) out.graftPage(-1, src, p);
  return save(out, 'garbage');
}

/** The same PDF, AES-256 encrypted with a user password. */
export function encrypted(bytes: Uint8Array, password: string): Uint8Array {
  const doc = new mupdf.PDFDocument(bytes);
  return save(doc, `encrypt=aes-256,user-password=${password},owner-password=${password}-owner`);
}

/**
 * A one-page PDF whose only content is a raster image of page `index` of `bytes` (a "scan"),
 * keeping the top `share` of the page so that OCR in the tests stays quick.
 */
export function imageOnly(bytes: Uint8Array, index: number, dpi: number, share = 1): Uint8Array {
  const src = mupdf.Document.openDocument(bytes, 'application/pdf');
  const page = src.loadPage(index);
  const [x0, y0, x1, y1] = page.getBounds();
  const w = x1 - x0,
    h = (y1 - y0) * share;
  const scale = dpi / 72;
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, Math.round(w * scale), Math.round(h * scale)], false);
  pixmap.clear(255);
  const matrix = mupdf.Matrix.concat(mupdf.Matrix.translate(-x0, -y0), mupdf.Matrix.scale(scale, scale));
  const device = new mupdf.DrawDevice(matrix, pixmap);
  page.run(device, mupdf.Matrix.identity);
  device.close();
  const out = new mupdf.PDFDocument();
  const image = out.addImage(new mupdf.Image(pixmap));
  const resources = out.addObject({ XObject: { Im0: image } });
  const content = `q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`;
  out.insertPage(-1, out.addPage([0, 0, w, h], 0, resources, content));
  return save(out, 'compress');
}

/** A one-page PDF, `inches` × `inches`, whose only content is a small image stretched over the page. */
export function hugeImagePage(inches: number): Uint8Array {
  const size = inches * 72;
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 8, 8], false);
  pixmap.clear(128);
  const out = new mupdf.PDFDocument();
  const image = out.addImage(new mupdf.Image(pixmap));
  const resources = out.addObject({ XObject: { Im0: image } });
  out.insertPage(-1, out.addPage([0, 0, size, size], 0, resources, `q ${size} 0 0 ${size} 0 0 cm /Im0 Do Q`));
  return save(out, 'compress');
}
