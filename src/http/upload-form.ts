// A multipart/form-data upload read part by part as it arrives (busboy), so a film posted from the page without
// JavaScript streams to the resource server instead of being buffered whole by request.formData().

import { Readable } from 'node:stream'
import type busboy from 'busboy'
import { HttpError } from './errors.ts'

export type FormPart =
  | { readonly kind: 'field'; readonly name: string; readonly value: string }
  | { readonly kind: 'file'; readonly name: string; readonly filename: string; readonly mimeType: string; readonly body: ReadableStream<Uint8Array> }

/** busboy (and the streams it brings) loads with the first upload form, not on every start of the pod (docs/performance.md). */
const loadBusboy = () => import('busboy').then(m => m.default)

const badForm = (why: string) => new HttpError(400, 'invalid_request', `expected a multipart/form-data upload form: ${why}`)

/**
 * The parts of the form in the order the browser sent them (document order: hidden fields first). A file's
 * body must be read (or cancelled) before the next part comes; stopping early (`break`, a throw) ends the
 * request's stream, so nothing more is read.
 */
export async function* uploadFormParts(request: Request): AsyncGenerator<FormPart> {
  if (!request.body || !/^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '')) throw badForm('the body is not multipart/form-data')
  const makeParser = await loadBusboy()
  let parser: busboy.Busboy
  try {
    // Fields are small (a token, a path, a checkbox); only files may be large.
    // Browsers send file names as raw UTF-8 (WHATWG HTML), not latin1 as busboy assumes by default.
    parser = makeParser({ headers: Object.fromEntries(request.headers), defParamCharset: 'utf8', limits: { fieldSize: 16 * 1024, fields: 20, parts: 10_000 } })
  } catch (err) {
    throw badForm(err instanceof Error ? err.message : String(err))
  }
  const waiting: FormPart[] = []
  let ended = false
  let failure: unknown
  let wake: () => void = () => {}
  const notify = () => wake()
  parser.on('field', (name, value) => {
    waiting.push({ kind: 'field', name, value })
    notify()
  })
  parser.on('file', (name, stream, info) => {
    waiting.push({
      kind: 'file',
      name,
      filename: info.filename ?? '',
      mimeType: info.mimeType,
      body: Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>,
    })
    notify()
  })
  parser.on('close', () => {
    ended = true
    notify()
  })
  parser.on('error', err => {
    failure = badForm(err instanceof Error ? err.message : String(err))
    notify()
  })
  const source = Readable.fromWeb(request.body as unknown as import('node:stream/web').ReadableStream<Uint8Array>)
  source.on('error', err => {
    failure = err
    notify()
  })
  source.pipe(parser)
  try {
    for (;;) {
      if (failure !== undefined) throw failure
      const part = waiting.shift()
      if (part) {
        yield part
        continue
      }
      if (ended) return
      await new Promise<void>(resolve => {
        wake = resolve
      })
    }
  } finally {
    source.unpipe(parser)
    source.destroy()
  }
}
