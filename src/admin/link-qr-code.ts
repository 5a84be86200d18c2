// A new share link as a QR code, so a phone across the table opens it without typing: an inline SVG drawn here by
// `qrcode` (a well-kept encoder; QR's Reed-Solomon and masking are no thing to write by hand), nothing fetched.
// Loaded at the first code drawn: it brings ~80 modules (pngjs, streams) that a start need not evaluate.

import { SafeHtml } from '../http/html-page.ts'

/** The SVG holds only the code's squares (paths): the URL itself is never written into it as text. */
export async function linkQrCode(url: string): Promise<SafeHtml> {
  const QRCode = (await import('qrcode')).default
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
  return new SafeHtml(svg.replace('<svg ', '<svg class="qr-code" width="200" height="200" role="img" aria-label="QR code of the link" '))
}
