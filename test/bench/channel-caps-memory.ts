// Issue 33 "Nothing lost, nobody locked out": the pod's RSS while one anonymous client holds every channel its
// cap gives it (--max-channels-per-client, 100 by default), as never-read streams of a public document that keeps
// changing, against idle. Printed, never asserted (aim: within 50 MB of idle). Run alone with
// `bun test/bench/channel-caps-memory.ts`.

import { connect, type Socket } from 'node:net'
import { seedPublicContainer, writeTurtle } from '../e2e/seed-store.ts'
import { rssMb } from '../e2e/large-bodies.ts'
import { startPod } from '../e2e/start-server.ts'

const AIM_MB = 50
const PER_CLIENT = 100
const DOC = '/live/hot.ttl'
/**
 * Writes of the document (`bun test/bench/channel-caps-memory.ts [WRITES]`): each is one notification (~300 bytes)
 * on every stream; loopback's socket buffers take a few MB per connection before the pod's own queue grows.
 */
const WRITES = Number(process.argv[2] ?? 12_000)
/** `control`: no stream opened, to tell the write path's own growth from the streams'. */
const CONTROL = process.argv[3] === 'control'
const CONCURRENCY = 8

/** A raw HTTP GET of the topic's stream that reads the status line and then never reads again. */
function openUnread(port: number, path: string): Promise<{ socket: Socket; status: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost:${port}\r\nAccept: application/ld+json\r\n\r\n`)
    })
    socket.once('data', chunk => {
      socket.pause()
      resolve({ socket, status: Number(/^HTTP\/1\.1 (\d+)/.exec(chunk.toString('latin1'))?.[1] ?? 0) })
    })
    socket.once('error', reject)
  })
}

async function main() {
  const pod = await startPod({
    extraArgs: ['--log-level', 'warn'],
    seed: (dataDir, baseUrl) =>
      seedPublicContainer(dataDir, baseUrl, '/live/', ['Read', 'Write'], store => writeTurtle(store, baseUrl, DOC, '<#it> <http://example.org/n> 0.')),
  })
  const sockets: Socket[] = []
  try {
    const pid = pod.proc.pid
    const put = async (i: number) => {
      const res = await fetch(`http://127.0.0.1:${pod.port}${DOC}`, {
        method: 'PUT',
        headers: { 'content-type': 'text/turtle' },
        body: `<#it> <http://example.org/n> ${i}.`,
      })
      await res.arrayBuffer()
    }
    const writeAll = async (from: number, onEach: (i: number) => void = () => {}) => {
      let next = from
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = next++; i < from + WRITES; i = next++) {
            await put(i)
            onEach(i)
          }
        }),
      )
    }
    // the same writes first, with no stream: the idle figure is a pod whose write path (LevelDB's memtable, the
    // caches) has grown as far as this load takes it
    await writeAll(0)
    Bun.gc(true)
    await Bun.sleep(3000) // the pod's reclaimer runs once it goes quiet
    const idle = rssMb(pid)
    const statuses: number[] = []
    for (let i = 0; i <= (CONTROL ? -1 : PER_CLIENT); i++) {
      const { socket, status } = await openUnread(pod.port, `/.notifications/StreamingHTTPChannel2023/topics${DOC}`)
      sockets.push(socket)
      statuses.push(status)
    }
    const opened = rssMb(pid)
    let peak = opened
    const started = performance.now()
    await writeAll(WRITES, i => {
      if (i % 100 === 0) peak = Math.max(peak, rssMb(pid))
    })
    peak = Math.max(peak, rssMb(pid))
    const seconds = (performance.now() - started) / 1000
    // Read every stream now: one the pod ended as too slow reaches its last chunk (RFC 9112 §7.1: a zero-size
    // chunk; the connection itself stays open) once its bytes are read
    const ended = await Promise.all(
      sockets.map(
        s =>
          new Promise<boolean>(resolve => {
            const timer = setTimeout(() => resolve(false), 5000)
            let tail = ''
            s.on('data', (chunk: Buffer) => {
              tail = (tail + chunk.toString('latin1')).slice(-16)
              if (tail.endsWith('\r\n0\r\n\r\n')) {
                clearTimeout(timer)
                resolve(true)
              }
            })
            s.resume()
          }),
      ),
    )
    const closedByPod = ended.filter(Boolean).length
    const ok = statuses.filter(s => s === 200).length
    const refused = statuses.filter(s => s === 429).length
    console.log(
      `channel caps memory${CONTROL ? ' (control: no stream)' : ''}: ${ok} streams of one anonymous client opened, ${refused} refused with 429 (cap ${PER_CLIENT}); ` +
        `RSS idle ${idle.toFixed(1)} MB, with the streams open ${opened.toFixed(1)} MB, peak over ${WRITES} writes ${peak.toFixed(1)} MB ` +
        `(+${(peak - idle).toFixed(1)} MB, ${seconds.toFixed(0)} s; aim within ${AIM_MB} MB: ${peak - idle <= AIM_MB ? 'met' : 'not met'}); streams the pod ended as too slow: ${closedByPod}`,
    )
  } finally {
    for (const s of sockets) s.destroy()
    await pod.dispose()
  }
}

if (import.meta.main) await main()
