// The notifications bench's subscribers (notifications.ts `openSubscribers`) are real WebSocketChannel2023 clients
// that parse every notification and count those that are not of their own topic: against a pod, every notification
// of a document and of a container is read as its subscriber's; against a stand-in that tells of another resource
// or sends what is not JSON, each such message is counted.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer, writeTurtle } from './seed-store.ts'
import { closeAll, openSubscribers, type Arrivals } from '../bench/notifications.ts'

const until = async (done: () => boolean) => {
  const deadline = performance.now() + 5000
  while (!done() && performance.now() < deadline) await Bun.sleep(10)
}
const counting = () => {
  const a: Arrivals & { count: number } = {
    count: 0,
    misread: 0,
    on: () => {
      a.count++
    },
  }
  return a
}

describe('against a pod', () => {
  let pod: RunningPod
  beforeAll(async () => {
    pod = await startPod({
      seed: (dir, base) =>
        seedPublicContainer(dir, base, '/live/', ['Read', 'Write'], store => writeTurtle(store, base, '/live/doc.ttl', '<#it> <http://example.org/n> "0".')),
    })
  })
  afterAll(() => pod?.dispose())

  test('each notification of a document and of a container is its subscriber’s', async () => {
    const at = { origin: `http://127.0.0.1:${pod.port}`, baseUrl: pod.baseUrl }
    const doc = counting()
    const container = counting()
    const docSubs = await openSubscribers(at, ['/live/doc.ttl'], 3, doc)
    const containerSubs = await openSubscribers(at, ['/live/'], 2, container)
    try {
      const put = (path: string) =>
        fetch(pod.baseUrl + path, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '<#it> <http://example.org/n> "1".' })
      expect((await put('/live/doc.ttl')).status).toBeLessThan(300)
      expect((await put('/live/new.ttl')).status).toBe(201)
      await until(() => doc.count >= 3 && container.count >= 2)
      expect(doc.count).toBe(3)
      expect(container.count).toBeGreaterThanOrEqual(2)
      expect(doc.misread).toBe(0)
      expect(container.misread).toBe(0)
    } finally {
      await closeAll([...docSubs, ...containerSubs])
    }
  })
})

test('a message that is not a notification of the subscriber’s topic is counted', async () => {
  const told = [
    JSON.stringify({ type: 'Update', object: 'http://localhost/other.ttl' }),
    'not json',
    JSON.stringify({ object: 'TOPIC' }),
    JSON.stringify({ type: 'Update', object: 'TOPIC' }),
  ]
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req, srv) {
      if (req.method === 'POST') {
        const { topic } = (await req.json()) as { topic: string }
        return Response.json({ receiveFrom: `ws://localhost:${srv.port}/ws?topic=${encodeURIComponent(topic)}` })
      }
      return srv.upgrade(req, { data: new URL(req.url).searchParams.get('topic')! }) ? undefined : new Response(null, { status: 400 })
    },
    websocket: {
      data: '' as string,
      open(ws) {
        for (const m of told) ws.send(m.replace('TOPIC', ws.data))
      },
      message() {},
    },
  })
  try {
    const a = counting()
    const subs = await openSubscribers({ origin: `http://127.0.0.1:${server.port}`, baseUrl: 'http://localhost' }, ['/doc.ttl'], 1, a)
    await until(() => a.count >= told.length)
    expect(a.count).toBe(4)
    // another resource, not JSON, no type: three; the last is the subscriber's own
    expect(a.misread).toBe(3)
    await closeAll(subs)
  } finally {
    server.stop(true)
  }
})
