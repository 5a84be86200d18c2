// An upload through the Files page's form streams part by part: 256 MiB is never held whole in memory
// (seconds of streaming: in the full suite, not the unit tier; the form's other rules are basic-forms.test.ts).

import { afterAll, beforeAll, expect, test } from 'bun:test'
import { BASE, type CookieJar, type TestPod } from '../op/op-fixture.ts'
import { getMeta } from '../../src/store/resources.ts'
import { openFormPod } from './owner-forms.ts'

let pod: TestPod
let owner: CookieJar
let csrf: string
beforeAll(async () => {
  ;({ pod, owner, csrf } = await openFormPod())
})
afterAll(() => pod.close())

test('a 256 MiB upload is never held whole in memory', async () => {
  const boundary = 'solopodboundary42'
  const block = new Uint8Array(1024 * 1024).fill(120)
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${csrf}\r\n--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\n/notes/\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="film.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`
  let sent = -1
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent === -1) c.enqueue(new TextEncoder().encode(head))
      else if (sent < 256) c.enqueue(block)
      else {
        c.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`))
        c.close()
      }
      sent++
    },
  })
  Bun.gc(true)
  const rss = process.memoryUsage.rss()
  let peak = rss
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 20)
  const res = await pod.request('/.admin/files/upload', {
    method: 'POST',
    headers: { cookie: owner.header(), origin: BASE, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  })
  clearInterval(sampler)
  expect(res.status).toBe(303)
  expect((await getMeta(pod.store, '/notes/film.bin'))?.size).toBe(256 * 1024 * 1024)
  // The whole body held once would be 256 MiB; a stream holds a few chunks.
  expect(peak - rss).toBeLessThan(128 * 1024 * 1024)
}, 60_000)
