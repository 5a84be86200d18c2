// When the registry tells a change: not before the request that made it is answered (its answer is written in
// the same turn of the event loop, after the commit), and still in commit order and decided per listener.

import { describe, expect, test } from 'bun:test'
import { makeChannelRegistry, type ChannelRegistryDeps } from '../../src/channels/channel-registry.ts'
import type { Listener } from '../../src/channels/listener.ts'
import type { NotificationMessage } from '../../src/channels/notification-message.ts'
import type { ResourceChange } from '../../src/store/change-feed.ts'

const BASE = 'http://localhost:3000'

function registry(readable: (who: string | undefined, url: string) => boolean) {
  let hear: (changes: readonly ResourceChange[]) => void = () => {}
  const channels = makeChannelRegistry({
    store: { changes: { listen: (fn: typeof hear) => ((hear = fn), () => {}) } },
    baseUrl: BASE,
    decider: { decide: async (p: { webid?: string }, url: string) => ({ modes: new Set(readable(p.webid, url) ? ['read'] : []) }) },
    revocations: { isRevoked: async () => false },
    now: () => Date.now(),
    maxChannels: 100,
    maxChannelsPerClient: 100,
    bufferBytes: 1024 * 1024,
  } as unknown as ChannelRegistryDeps)
  const heard: string[] = []
  const ended: string[] = []
  const listen = (id: string, topic: string, who: string) => {
    const listener: Listener = {
      id,
      type: 'WebSocketChannel2023',
      topic,
      principal: { keys: [], scheme: 'anonymous', webid: who } as unknown as Listener['principal'],
      holder: { owner: false, client: who } as unknown as Listener['holder'],
      since: Date.now(),
      features: { accept: 'application/ld+json' },
      send: (m: NotificationMessage) => void heard.push(`${id} ${m.object} ${m.state}`),
      close: reason => void ended.push(`${id} ${reason}`),
    }
    return channels.open(listener)
  }
  const change = (path: string, state: string): ResourceChange => ({ topic: path, type: 'Update', object: path, state, published: Date.now() })
  return { channels, heard, ended, listen, publish: (changes: ResourceChange[]) => hear(changes), change }
}

/** Lets every queued microtask run, without a turn of the event loop. */
async function microtasks() {
  for (let i = 0; i < 50; i++) await Promise.resolve()
}
/** The next turns of the event loop. */
const turn = () => new Promise(resolve => setTimeout(resolve, 5))

describe('channel registry', () => {
  test('a change is told from the next turn of the event loop, never in the turn of the write that made it', async () => {
    const r = registry(() => true)
    await r.listen('a', '/doc', 'alice')
    r.publish([r.change('/doc', '"1"')])
    await microtasks()
    expect(r.heard).toEqual([])
    await turn()
    expect(r.heard).toEqual([`a ${BASE}/doc "1"`])
  })

  test('changes heard in one turn are told in commit order, to each listener once', async () => {
    const r = registry(() => true)
    await r.listen('a', '/doc', 'alice')
    await r.listen('b', '/doc', 'bob')
    await r.listen('c', '/other', 'alice')
    r.publish([r.change('/doc', '"1"')])
    r.publish([r.change('/other', '"2"'), r.change('/doc', '"3"')])
    await turn()
    expect(r.heard).toEqual([`a ${BASE}/doc "1"`, `b ${BASE}/doc "1"`, `c ${BASE}/other "2"`, `a ${BASE}/doc "3"`, `b ${BASE}/doc "3"`])
  })

  test('each listener is decided at the change: one that lost Read is ended, the others are told', async () => {
    let bobReads = true
    const r = registry(who => who === 'alice' || bobReads)
    await r.listen('a', '/doc', 'alice')
    await r.listen('b', '/doc', 'bob')
    bobReads = false
    r.publish([r.change('/doc', '"1"')])
    await turn()
    expect(r.heard).toEqual([`a ${BASE}/doc "1"`])
    expect(r.ended).toEqual(['b access_lost'])
    expect(r.channels.get('b')).toBeUndefined()
  })
})
