// What 1,000 WebSocket frames cost a bare `Bun.serve`, the floor under the pod's fan-out (issue 41): the same
// notification sent to 1,000 sockets (held by a child process) with `ws.send` per socket, `ws.sendText`, or one
// `server.publish` to a topic all of them joined; user and system CPU per fan-out of this process.
// `bun test/bench/bare-socket-fanout.ts`.

const N = 1000
const FANOUTS = 30

if (process.argv[2] === 'client') {
  const port = process.argv[3]
  let open = 0
  for (let i = 0; i < N; i++) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`)
    ws.onopen = () => {
      if (++open === N) console.log('ready')
    }
    ws.onmessage = () => {}
  }
  await new Promise(() => {})
}

type Socket = Bun.ServerWebSocket<undefined>
const sockets: Socket[] = []
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: (req, srv) => (srv.upgrade(req) ? undefined : new Response('a WebSocket only', { status: 400 })),
  websocket: {
    open(ws) {
      sockets.push(ws)
      ws.subscribe('topic')
    },
    message() {},
    backpressureLimit: 4 * 1024 * 1024,
    closeOnBackpressureLimit: true,
  },
})
const child = Bun.spawn([process.execPath, import.meta.path, 'client', String(server.port)], { stdout: 'pipe' })
await (child.stdout as ReadableStream<Uint8Array>).getReader().read()
const message = JSON.stringify({
  '@context': ['https://www.w3.org/ns/activitystreams', 'https://www.w3.org/ns/solid/notification/v1'],
  id: `urn:uuid:${crypto.randomUUID()}`,
  type: 'Update',
  object: 'http://localhost:3000/live/hot.ttl',
  state: '"1764431234567-2a"',
  published: new Date().toISOString(),
})
const ways: Record<string, () => void> = {
  'ws.send, getBufferedAmount': () => {
    for (const ws of sockets) {
      ws.send(message)
      ws.getBufferedAmount()
    }
  },
  'ws.sendText': () => {
    for (const ws of sockets) ws.sendText(message)
  },
  'server.publish': () => void server.publish('topic', message),
}
for (let round = 0; round < 2; round++)
  for (const [name, fanOut] of Object.entries(ways)) {
    await Bun.sleep(200)
    const before = process.cpuUsage()
    for (let k = 0; k < FANOUTS; k++) {
      fanOut()
      await Bun.sleep(0)
    }
    const used = process.cpuUsage(before)
    console.log(
      `${name}: per fan-out to ${N} sockets user ${(used.user / FANOUTS / 1000).toFixed(2)} ms, system ${(used.system / FANOUTS / 1000).toFixed(2)} ms`,
    )
  }
child.kill()
await server.stop(true)
