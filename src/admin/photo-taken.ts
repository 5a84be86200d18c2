// When a photo was taken, from its EXIF (DateTimeOriginal, else CreateDate), for the viewer page. Only the first
// 128 KiB are read, as the owner through the operations layer with a Range: EXIF sits at the start of a JPEG,
// HEIC or TIFF. exifr parses it (hand-parsing TIFF structures is where bugs live); a file without EXIF, or with
// a malformed one, gives nothing rather than an error: the date is a nicety, never a reason to fail the page.

import exifr from 'exifr'
import type { OwnerRead } from './owner-read.ts'

const EXIF_READ_BYTES = 128 * 1024
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** "14 July 2026, 18:32", or undefined where the file has no readable date. `photo`: the viewer's read of it (openAsOwner). */
export async function photoTaken(photo: Pick<OwnerRead, 'get'>): Promise<string | undefined> {
  try {
    const res = await photo.get('*/*', new Headers({ range: `bytes=0-${EXIF_READ_BYTES - 1}` }))
    const tags = await exifr.parse(await firstBytes(res.body), { pick: ['DateTimeOriginal', 'CreateDate'], reviveValues: false })
    return formatExifDate(tags?.DateTimeOriginal) ?? formatExifDate(tags?.CreateDate)
  } catch {
    return undefined
  }
}

/** The body up to the limit, the rest cancelled, in case a representation ever ignores the Range. */
async function firstBytes(body: ReadableStream<Uint8Array> | null): Promise<Uint8Array> {
  const out = new Uint8Array(EXIF_READ_BYTES)
  let size = 0
  const reader = body?.getReader()
  for (let r = await reader?.read(); r && !r.done && size < EXIF_READ_BYTES; r = await reader!.read()) {
    const part = r.value.subarray(0, EXIF_READ_BYTES - size)
    out.set(part, size)
    size += part.byteLength
  }
  await reader?.cancel()
  return out.subarray(0, size)
}

/**
 * EXIF writes "2026:07:14 18:32:05" with no time zone: it is the camera's wall clock, so it is shown as written,
 * never converted. Anything else (blank, "0000:00:00 …", a wrong type) is no date.
 */
export function formatExifDate(value: unknown): string | undefined {
  const m = typeof value === 'string' ? /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2})/.exec(value.trim()) : null
  if (!m) return undefined
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number]
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return undefined
  return `${day} ${MONTHS[month - 1]} ${year}, ${m[4]}:${m[5]}`
}
