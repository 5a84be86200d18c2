// Subscribers in a process of their own, for the PUT-with-listeners measure of notifications.ts: receiving the
// notifications on the load generator's own JS thread slowed the generator, and that counted against the pod.
// `bun test/bench/notification-listeners.ts ORIGIN BASE_URL COUNT TOPIC...`: opens COUNT WebSocketChannel2023
// subscriptions (subscriber i to TOPIC[i % n]), prints `ready`, then answers each line read on stdin with the
// number of notifications received so far and of those that were not a notification of the subscriber's topic
// (each is parsed, as a client would); SIGTERM closes the sockets and exits.

import { openSubscribers, closeAll } from './notifications.ts'

const [origin, baseUrl, count, ...topics] = process.argv.slice(2)
if (!origin || !baseUrl || !count || topics.length === 0) throw new Error('usage: notification-listeners.ts ORIGIN BASE_URL COUNT TOPIC...')
let received = 0
const arrivals = {
  on: () => {
    received++
  },
  misread: 0,
}
const subs = await openSubscribers({ origin, baseUrl }, topics, Number(count), arrivals)
console.log('ready')
process.on('SIGTERM', async () => {
  await closeAll(subs)
  process.exit(0)
})
for await (const _ of console) console.log(`received ${received} misread ${arrivals.misread}`)
