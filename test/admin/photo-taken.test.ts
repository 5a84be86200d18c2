// The viewer page's "Taken …" line (src/admin/photo-taken.ts): the EXIF date of a photo as written, nothing for
// a file without EXIF or with a malformed one, and the page still 200.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CookieJar, TestPod } from '../op/op-fixture.ts'
import { BASE } from '../op/op-fixture.ts'
import { openFormPod } from './owner-forms.ts'
import { formatExifDate } from '../../src/admin/photo-taken.ts'

const DATE_TIME_ORIGINAL = 0x9003
const CREATE_DATE = 0x9004

/** A JPEG holding only an APP1 Exif segment: IFD0 points to an Exif IFD with one date tag (little-endian TIFF). */
function jpegWithExifDate(tag: number, date: string): Uint8Array<ArrayBuffer> {
  const tiff = new DataView(new ArrayBuffer(44 + 20))
  tiff.setUint16(0, 0x4949) // "II"
  tiff.setUint16(2, 42, true)
  tiff.setUint32(4, 8, true) // IFD0
  tiff.setUint16(8, 1, true)
  tiff.setUint16(10, 0x8769, true) // ExifIFD pointer, LONG, 1, at 26
  tiff.setUint16(12, 4, true)
  tiff.setUint32(14, 1, true)
  tiff.setUint32(18, 26, true)
  tiff.setUint16(26, 1, true)
  tiff.setUint16(28, tag, true) // ASCII, 20 bytes, at 44
  tiff.setUint16(30, 2, true)
  tiff.setUint32(32, 20, true)
  tiff.setUint32(36, 44, true)
  new Uint8Array(tiff.buffer).set(new TextEncoder().encode(`${date}\0`), 44)
  return jpegWithApp1(new Uint8Array(tiff.buffer))
}

function jpegWithApp1(tiff: Uint8Array): Uint8Array<ArrayBuffer> {
  const exif = new Uint8Array([0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff]) // "Exif\0\0"
  const length = exif.length + 2
  return new Uint8Array([0xff, 0xd8, 0xff, 0xe1, length >> 8, length & 0xff, ...exif, 0xff, 0xd9])
}

let pod: TestPod
const ODD_PHOTO = jpegWithExifDate(DATE_TIME_ORIGINAL, '2026:08:01 09:15:00')
let owner: CookieJar
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'))
// "II*\0" then an IFD0 offset far past the segment and garbage: exifr cannot read it
const CORRUPT = jpegWithApp1(new Uint8Array([0x49, 0x49, 0x2a, 0x00, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4, 5, 6, 7, 8]))

beforeAll(async () => {
  const ctx = await openFormPod()
  ;({ pod, owner } = ctx)
  for (const [path, body, type] of [
    ['/pics/taken.jpg', jpegWithExifDate(DATE_TIME_ORIGINAL, '2026:07:14 18:32:05'), 'image/jpeg'],
    [`/pics/${encodeURIComponent('Été #1 ?50% a+b.jpg')}`, ODD_PHOTO, 'image/jpeg'],
    ['/pics/notes.txt', 'a small text', 'text/plain'],
    ['/pics/created.jpg', jpegWithExifDate(CREATE_DATE, '2025:01:02 07:05:00'), 'image/jpeg'],
    ['/pics/plain.png', PNG, 'image/png'],
    ['/pics/corrupt.jpg', CORRUPT, 'image/jpeg'],
    ['/pics/not-a-photo.jpg', 'plain text, typed as a JPEG', 'image/jpeg'],
  ] as const) {
    const res = await pod.request(path, {
      method: 'PUT',
      headers: { cookie: owner.header(), origin: BASE, 'x-csrf-token': ctx.csrf, 'content-type': type },
      body,
    })
    expect(res.status).toBe(201)
  }
})
afterAll(() => pod.close())

const view = (path: string) => pod.request(`/.admin/files/view?path=${encodeURIComponent(path)}`, { headers: { cookie: owner.header() } })

describe('the date a photo was taken', () => {
  test('EXIF DateTimeOriginal: shown as written, in English', async () => {
    const res = await view('/pics/taken.jpg')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('<p>Taken 14 July 2026, 18:32</p>')
  })
  test('no DateTimeOriginal: CreateDate', async () => {
    expect(await (await view('/pics/created.jpg')).text()).toContain('<p>Taken 2 January 2025, 07:05</p>')
  })
  test('a PNG without EXIF: no date', async () => {
    const res = await view('/pics/plain.png')
    expect(res.status).toBe(200)
    expect(await res.text()).not.toContain('Taken')
  })
  test('a corrupt APP1 segment: the page still 200, no date', async () => {
    const res = await view('/pics/corrupt.jpg')
    expect(res.status).toBe(200)
    expect(await res.text()).not.toContain('Taken')
  })
  test('bytes that are no image at all (exifr throws): the page still 200, no date', async () => {
    const res = await view('/pics/not-a-photo.jpg')
    expect(res.status).toBe(200)
    expect(await res.text()).not.toContain('Taken')
  })
  test('blank or impossible dates are no date', () => {
    expect(formatExifDate('    :  :     :  :  ')).toBeUndefined()
    expect(formatExifDate('0000:00:00 00:00:00')).toBeUndefined()
    expect(formatExifDate('2026:13:01 10:00:00')).toBeUndefined()
    expect(formatExifDate(new Date())).toBeUndefined()
    expect(formatExifDate('2026:12:31 23:59:59')).toBe('31 December 2026, 23:59')
  })
})

describe('the viewer reads a file once: a HEAD for its type and size, then only the bytes it shows', () => {
  /** The store's blob reads while `fn` runs, as [start, end] (undefined: from the start, to the end). */
  async function blobReads(fn: () => Promise<void>): Promise<[number | undefined, number | undefined][]> {
    const blobs = pod.deps.store.blobs
    const open = blobs.open.bind(blobs)
    const reads: [number | undefined, number | undefined][] = []
    blobs.open = (id, start, end) => {
      reads.push([start, end])
      return open(id, start, end)
    }
    try {
      await fn()
    } finally {
      blobs.open = open
    }
    return reads
  }

  test('a photo (a name with spaces, accents, #, ?, %, +): one ranged read of its first 128 KiB (all of this small one), for the EXIF date', async () => {
    const reads = await blobReads(async () => {
      const res = await view(`/pics/${encodeURIComponent('Été #1 ?50% a+b.jpg')}`)
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('<p>Taken 1 August 2026, 09:15</p>')
    })
    expect(reads).toEqual([[0, ODD_PHOTO.byteLength]])
  })

  test('a small text: its body read once, whole', async () => {
    const reads = await blobReads(async () => {
      const res = await view('/pics/notes.txt')
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('a small text')
    })
    expect(reads).toEqual([[undefined, undefined]])
  })
})
