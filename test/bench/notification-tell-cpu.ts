// The pod's JS per change told to a few listeners (issue 41, the bench's "PUT with 1,000 subscribers": 5 on each
// written document): the registry of a real pod (its store, its access decider deciding a public container's ACL),
// 5 WebSocket channels on each of 200 documents, each socket's `send` stubbed, changes published as a PUT's commit
// publishes them. CPU per change, in-process: what a heard PUT adds on the pod's JS thread besides the 5 writes
// (bare-socket-fanout.ts measures those). `bun test/bench/notification-tell-cpu.ts [CHANGES] [ROUNDS]`.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildConfig } from '../../src/config.ts'
import { makeDeps } from '../../src/deps.ts'
import { openStore } from '../../src/store/open-store.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { setLogLevel } from '../../src/log.ts'
import { socketListener } from '../../src/notify/socket-listener.ts'
import type { PodSocket } from '../../src/http/socket-session.ts'
import type { PendingChannel } from '../../src/notify/pending-channels.ts'
import { ANONYMOUS } from '../../src/auth/principal.ts'
import { publicAcl, writeTurtle } from '../e2e/seed-store.ts'

const CHANGES = Number(process.argv[2] ?? 20_000)
const ROUNDS = Number(process.argv[3] ?? 5)
const DOCS = 200
const PER_DOC = 5
const BASE = 'http://localhost:3000'

setLogLevel('warn')
const dir = mkdtempSync(join(tmpdir(), 'solopod-bench-tell-'))
const cfg = buildConfig(['--data', dir, '--base-url', BASE, '--log-level', 'warn', '--max-channels-per-client', '100000'], {})
const store = await openStore(cfg.dataDir)
const docs = Array.from({ length: DOCS }, (_, i) => `/live/doc-${i}.ttl`)
await ensureOwner(store, BASE, Date.now())
await writeTurtle(store, BASE, '/live/', '')
await writeTurtle(store, BASE, '/live/.acl', publicAcl(`${BASE}/live/`, ['Read', 'Write']))
for (const d of docs) await writeTurtle(store, BASE, d, '<#it> <http://example.org/n> "0".')
const { channels } = makeDeps(cfg, store, () => Date.now())

let sent = 0
let want = 0
let done = () => {}
const ws = {
  send: () => {
    if (++sent === want) done()
    return 300
  },
  getBufferedAmount: () => 0,
  close() {},
  terminate() {},
} as unknown as PodSocket
let n = 0
for (const topic of docs)
  for (let k = 0; k < PER_DOC; k++) {
    const channel: PendingChannel = {
      id: `${BASE}/.notifications/WebSocketChannel2023/${(n++).toString(16).padStart(32, '0')}`,
      type: 'WebSocketChannel2023',
      topic,
      principal: ANONYMOUS as unknown as PendingChannel['principal'],
      holder: { owner: false, client: 'bench' } as unknown as PendingChannel['holder'],
      features: { accept: 'application/ld+json' },
      since: Date.now(),
    }
    await channels.open(socketListener(channel, ws, channels))
  }

/** `count` changes, one per PUT as commit-changes.ts publishes them, all told. */
const tell = (count: number) =>
  new Promise<void>(resolve => {
    sent = 0
    want = count * PER_DOC
    done = resolve
    for (let i = 0; i < count; i++) {
      const topic = docs[i % DOCS]!
      store.changes.publish([{ topic, type: 'Update', object: topic, state: `"${i}-a"`, published: Date.now() }])
    }
  })
await tell(2000)
let best = Infinity
for (let r = 0; r < ROUNDS; r++) {
  const before = process.cpuUsage()
  for (let done = 0; done < CHANGES; done += 100) await tell(100)
  const used = process.cpuUsage(before)
  const us = (used.user + used.system) / CHANGES
  best = Math.min(best, us)
  console.log(`round ${r}: ${us.toFixed(2)} µs CPU per change told to ${PER_DOC} listeners (sends stubbed)`)
}
console.log(`best ${best.toFixed(2)} µs per change`)
await store.close()
rmSync(dir, { recursive: true, force: true })
process.exit(0)
