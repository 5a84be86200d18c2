// The S3 upload's own PUT (store/socket-put.ts) against a local server: the bytes arrive exactly, with the caller's
// headers and the length; the answer's status, headers and body (whole or chunked); a cut or a connection closed
// without an answer rejects.

import { afterAll, describe, expect, test } from 'bun:test'
import { createServer, type Socket } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { socketPut } from '../../src/store/socket-put.ts'
import { makeLocalhostCertificate } from '../e2e/tls-cert.ts'

const seen: { method: string; url: string; headers: Headers; body: Uint8Array }[] = []
const server = Bun.serve({
  port: 0,
  async fetch(req) {
    const body = new Uint8Array(await req.arrayBuffer())
    seen.push({ method: req.method, url: req.url, headers: req.headers, body })
    const url = new URL(req.url)
    if (url.searchParams.has('chunked'))
      return new Response(
        new ReadableStream({
          async start(c) {
            c.enqueue(new TextEncoder().encode('<Error><Code>'))
            await Bun.sleep(20)
            c.enqueue(new TextEncoder().encode('NoSuchUpload</Code></Error>'))
            c.close()
          },
        }),
        { status: 404 },
      )
    return new Response(null, { status: 200, headers: { etag: '"abc"' } })
  },
})
/** A server that closes every connection without a word. */
const mute = createServer((s: Socket) => s.destroy()).listen(0)
/** A server that reads nothing and never answers. */
const held: Socket[] = []
const silent = createServer((s: Socket) => {
  s.pause()
  held.push(s)
}).listen(0)
afterAll(() => {
  server.stop(true)
  mute.close()
  for (const s of held) s.destroy()
  silent.close()
})
const never = new AbortController().signal

describe('socket PUT', () => {
  test('the body arrives exactly, with the headers given and its length; the answer is read', async () => {
    const body = Uint8Array.from({ length: 3 * 1024 * 1024 + 5 }, (_, i) => (i * 7) & 255)
    const answer = await socketPut(new URL(`http://localhost:${server.port}/bucket/a%20b?partNumber=2`), new Headers({ 'x-amz-test': 'yes' }), body, never)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('etag')).toBe('"abc"')
    expect(answer.text).toBe('')
    const got = seen.at(-1)!
    expect(got.method).toBe('PUT')
    expect(new URL(got.url).pathname + new URL(got.url).search).toBe('/bucket/a%20b?partNumber=2')
    expect(got.headers.get('x-amz-test')).toBe('yes')
    expect(got.headers.get('content-length')).toBe(String(body.byteLength))
    expect(got.body).toEqual(body)
  })

  test('a TLS server whose certificate the system does not trust is refused, saying so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-socket-put-'))
    const { cert, key } = makeLocalhostCertificate(dir)
    const tls = Bun.serve({ port: 0, hostname: '127.0.0.1', tls: { cert: Bun.file(cert), key: Bun.file(key) }, fetch: () => new Response('taken') })
    try {
      await expect(socketPut(new URL(`https://localhost:${tls.port}/bucket/k`), new Headers(), new Uint8Array(10), never)).rejects.toThrow(
        `the TLS connection to localhost:${tls.port} was refused: self signed certificate`,
      )
    } finally {
      tls.stop(true)
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('a chunked answer is put together', async () => {
    const answer = await socketPut(new URL(`http://localhost:${server.port}/x?chunked`), new Headers(), new Uint8Array(3), never)
    expect(answer.status).toBe(404)
    expect(answer.headers.get('transfer-encoding')).toBe('chunked')
    expect(answer.text).toBe('<Error><Code>NoSuchUpload</Code></Error>')
  })

  test('a connection closed without an answer, refused, or cut by the signal rejects', async () => {
    const port = (mute.address() as { port: number }).port
    await expect(socketPut(new URL(`http://127.0.0.1:${port}/`), new Headers(), new Uint8Array(10), never)).rejects.toThrow()
    await expect(socketPut(new URL('http://127.0.0.1:1/'), new Headers(), new Uint8Array(10), never)).rejects.toThrow()
    const cut = new AbortController()
    const sending = socketPut(
      new URL(`http://127.0.0.1:${(silent.address() as { port: number }).port}/`),
      new Headers(),
      new Uint8Array(64 * 1024 * 1024),
      cut.signal,
    )
    await Bun.sleep(100)
    cut.abort(new Error('given up'))
    await expect(sending).rejects.toThrow('given up')
  })
})
