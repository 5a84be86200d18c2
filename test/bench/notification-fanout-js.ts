// The pod's own JS per listener when a change is told to 1,000 WebSocket channels on one topic (issue 41):
// the registry's loop (decision reused, pacing, the socket listener's send and buffer accounting) with the
// socket's `send` stubbed, in-process, CPU time per listener. What it leaves out, the frame and its write,
// is measured by bare-socket-fanout.ts. `bun test/bench/notification-fanout-js.ts [FANOUTS]`.

import { makeChannelRegistry, type ChannelRegistryDeps } from '../../src/channels/channel-registry.ts'
import { socketListener } from '../../src/notify/socket-listener.ts'
import type { PodSocket } from '../../src/http/socket-session.ts'
import type { PendingChannel } from '../../src/notify/pending-channels.ts'
import type { ResourceChange } from '../../src/store/change-feed.ts'

const LISTENERS = 1000
const FANOUTS = Number(process.argv[2] ?? 2000)
const TOPIC = '/live/hot.ttl'

let hear: (changes: readonly ResourceChange[]) => void = () => {}
const registry = makeChannelRegistry({
  store: { changes: { listen: (fn: typeof hear) => ((hear = fn), () => {}) } },
  baseUrl: 'http://localhost:3000',
  decider: { decide: async () => ({ modes: new Set(['read']) }) },
  revocations: { isRevoked: async () => false },
  now: () => Date.now(),
  maxChannels: 100_000,
  maxChannelsPerClient: 100_000,
  bufferBytes: 64 * 1024 * 1024,
} as unknown as ChannelRegistryDeps)

let sent = 0
let allSent = () => {}
const ws = {
  send: () => {
    if (++sent === LISTENERS) allSent()
    return 300
  },
  getBufferedAmount: () => 0,
  close() {},
  terminate() {},
} as unknown as PodSocket
for (let i = 0; i < LISTENERS; i++) {
  const channel: PendingChannel = {
    id: `http://localhost:3000/.notifications/WebSocketChannel2023/${i.toString(16).padStart(32, '0')}`,
    type: 'WebSocketChannel2023',
    topic: TOPIC,
    principal: { keys: [], scheme: 'anonymous' } as unknown as PendingChannel['principal'],
    holder: { owner: false, client: 'bench' } as unknown as PendingChannel['holder'],
    features: { accept: 'application/ld+json' },
    since: Date.now(),
  }
  await registry.open(socketListener(channel, ws, registry))
}

const tellOnce = () =>
  new Promise<void>(resolve => {
    sent = 0
    allSent = resolve
    hear([{ topic: TOPIC, type: 'Update', object: TOPIC, state: '"1-a"', published: Date.now() }])
  })
for (let i = 0; i < 200; i++) await tellOnce()
const before = process.cpuUsage()
for (let i = 0; i < FANOUTS; i++) await tellOnce()
const used = process.cpuUsage(before)
console.log(
  `registry fan-out to ${LISTENERS} listeners, sends stubbed: ${(((used.user + used.system) * 1000) / FANOUTS / LISTENERS).toFixed(0)} ns CPU per listener`,
)
process.exit(0)
