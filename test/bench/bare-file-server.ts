// The ceiling for files over HTTP: a bare Bun.serve in its own process like the pod, that writes a PUT's body to
// a file with Bun's file writer and fsyncs it before answering, and answers a GET with the `Bun.file` (sendfile).
// A body sent to /drain is read and dropped: what an upload over loopback reaches before any disk or hash.
// `bun test/bench/bare-file-server.ts DIR`; prints `port N` once listening.

import { closeSync, fsyncSync, openSync } from 'node:fs'
import { join } from 'node:path'

const dir = process.argv[2]
if (!dir) throw new Error('usage: bare-file-server.ts DIR')
const file = join(dir, 'bare.bin')

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  maxRequestBodySize: Number.MAX_SAFE_INTEGER,
  async fetch(req) {
    if (req.method === 'GET') return new Response(Bun.file(file))
    if (new URL(req.url).pathname === '/drain') {
      let bytes = 0
      for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength
      return new Response(String(bytes), { status: 200 })
    }
    const writer = Bun.file(file).writer({ highWaterMark: 1024 * 1024 })
    for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) writer.write(chunk)
    await writer.end()
    const fd = openSync(file, 'r+')
    fsyncSync(fd)
    closeSync(fd)
    return new Response(null, { status: 204 })
  },
})
// large-files.ts reads the port from this line.
console.log(`port ${server.port}`)
process.on('SIGTERM', () => {
  server.stop(true)
  process.exit(0)
})
