// The ceiling: a bare Bun.serve answering the 1 KB Turtle document, in its own process like the pod.

import { DOC_1K } from './documents.ts'

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: () => new Response(DOC_1K, { headers: { 'content-type': 'text/turtle; charset=utf-8' } }),
})
// run.ts reads the port from this line.
console.log(`port ${server.port}`)
process.on('SIGTERM', () => {
  server.stop(true)
  process.exit(0)
})
