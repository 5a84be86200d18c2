// Live updates in the owner's dashboard (issue 23 "The dashboard"): GET /.admin/api/channels lists the open
// channels, DELETE /.admin/api/channels/{id} and the script-free page's End form end one with 'ended_by_owner';
// owner only, CSRF-checked, each refusal with its exact status and code.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASE, CookieJar, type TestPod } from '../op/op-fixture.ts'
import { openFormPod, pageError, testApiGuards, testFormGuards, type FormPod } from './owner-forms.ts'
import type { EndReason, Listener } from '../../src/channels/listener.ts'
import { saveConsent } from '../../src/account/consents.ts'
import type { ClientId, WebId } from '../../src/account/ids.ts'
import { deleteTrouble, putTrouble } from '../../src/channels/webhook-records.ts'

let ctx: FormPod
let pod: TestPod
beforeAll(async () => {
  ctx = await openFormPod()
  pod = ctx.pod
})
afterAll(() => pod.close())

const WEBID = 'https://alice.example/profile#me' as WebId
const APP = 'https://notes.example/app.json' as ClientId
const TOPIC = '/notes%20%C3%A9t%C3%A9/caf%C3%A9%20%23%3F%25+.ttl'
let serial = 0

/** Opens a channel on the pod's registry as the notification role would; `ended` gets the reasons it was closed with. */
async function openChannel(o: { webid?: WebId; clientId?: ClientId; endAt?: number } = {}) {
  const ended: EndReason[] = []
  const id = `${BASE}/.notifications/WebSocketChannel2023/${(++serial).toString(16).padStart(32, '0')}`
  const listener: Listener = {
    id,
    type: 'WebSocketChannel2023',
    topic: TOPIC,
    since: pod.clock.now,
    holder: { client: `agent ${o.webid ?? ''}`, owner: false },
    principal: { keys: [], scheme: o.webid ? 'DPoP' : 'anonymous', ...(o.webid ? { webid: o.webid } : {}), ...(o.clientId ? { clientId: o.clientId } : {}) },
    features: { accept: 'application/ld+json', ...(o.endAt ? { endAt: o.endAt } : {}) },
    send() {},
    close(reason) {
      ended.push(reason)
    },
  }
  await pod.deps.channels.open(listener)
  return { id, ended }
}

function api(method: string, path: string, o: { jar?: CookieJar; csrf?: boolean; origin?: string } = {}) {
  const jar = o.jar ?? ctx.owner
  return pod.request(path, {
    method,
    headers: { cookie: jar.header(), ...(o.csrf === false ? {} : { 'x-csrf-token': ctx.csrf }), ...(o.origin ? { origin: o.origin } : {}) },
  })
}
const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error

describe('the channels API is for the owner only', () => {
  const routes: [string, string][] = [
    ['GET', '/.admin/api/channels'],
    ['DELETE', '/.admin/api/channels/x'],
  ]
  testApiGuards(api, routes)
  test('DELETE without X-CSRF-Token → 403 csrf_failed, and the channel stays open', async () => {
    const { id, ended } = await openChannel()
    const res = await api('DELETE', `/.admin/api/channels/${encodeURIComponent(id)}`, { csrf: false })
    expect(res.status).toBe(403)
    expect(await errorOf(res)).toBe('csrf_failed')
    expect(ended).toEqual([])
    expect(pod.deps.channels.get(id)).toBeDefined()
    pod.deps.channels.end(id, 'closed')
  })
})

describe('GET /.admin/api/channels', () => {
  test('lists each open channel: topic URL, channel type, WebID, app and its approved name, since and until', async () => {
    await saveConsent(pod.store, { clientId: APP, clientName: 'Notes', scopes: ['openid', 'webid'], grantedAt: pod.clock.now })
    const endAt = pod.clock.now + 3_600_000
    const a = await openChannel({ webid: WEBID, clientId: APP, endAt })
    const b = await openChannel()
    try {
      const res = await api('GET', '/.admin/api/channels')
      expect(res.status).toBe(200)
      const { total, channels } = await res.json()
      expect(total).toBe(2)
      expect(channels).toEqual([
        {
          id: a.id,
          type: 'WebSocketChannel2023',
          topic: BASE + TOPIC,
          webid: WEBID,
          clientId: APP,
          clientName: 'Notes',
          keys: [],
          since: new Date(pod.clock.now).toISOString(),
          endAt: new Date(endAt).toISOString(),
        },
        {
          id: b.id,
          type: 'WebSocketChannel2023',
          topic: BASE + TOPIC,
          webid: null,
          clientId: null,
          clientName: null,
          keys: [],
          since: new Date(pod.clock.now).toISOString(),
          endAt: null,
        },
      ])
    } finally {
      pod.deps.channels.end(a.id, 'closed')
      pod.deps.channels.end(b.id, 'closed')
    }
  })
})

describe('webhooks whose receiver fails', () => {
  const KEY = 'a'.repeat(32)
  const trouble = () => ({
    id: `${BASE}/.notifications/WebhookChannel2023/${KEY}`,
    topic: TOPIC,
    sendTo: 'https://hooks.example/in',
    webid: WEBID,
    state: 'dropped' as const,
    reason: 'answered 503',
    since: pod.clock.now - 3 * 86_400_000,
    lastAttempt: pod.clock.now,
    lost: 4,
  })
  test('GET lists each, failing or dropped, with its reason, since when and how many notifications it lost', async () => {
    await putTrouble(pod.store, KEY, trouble(), pod.clock.now)
    try {
      const { webhookTroubles } = await (await api('GET', '/.admin/api/channels')).json()
      const t = trouble()
      expect(webhookTroubles).toEqual([
        { ...t, topic: BASE + TOPIC, since: new Date(t.since).toISOString(), lastAttempt: new Date(t.lastAttempt).toISOString() },
      ])
    } finally {
      await deleteTrouble(pod.store, KEY)
    }
  })
  test('the page without JavaScript shows them too, document name decoded', async () => {
    await putTrouble(pod.store, KEY, trouble(), pod.clock.now)
    try {
      const page = await (await pod.request('/.admin/live-updates', { headers: { cookie: ctx.owner.header() } })).text()
      expect(page).toContain('Webhooks that fail')
      expect(page).toContain('/notes été/café #?%+.ttl')
      expect(page).toContain('answered 503')
    } finally {
      await deleteTrouble(pod.store, KEY)
    }
  })
  test('none: the API says so and the page has no such table', async () => {
    expect((await (await api('GET', '/.admin/api/channels')).json()).webhookTroubles).toEqual([])
    expect(await (await pod.request('/.admin/live-updates', { headers: { cookie: ctx.owner.header() } })).text()).not.toContain('Webhooks that fail')
  })
})

describe('DELETE /.admin/api/channels/{id}', () => {
  test("ends the channel with reason 'ended_by_owner' → 204, and it is no longer listed", async () => {
    const { id, ended } = await openChannel({ webid: WEBID })
    const res = await api('DELETE', `/.admin/api/channels/${encodeURIComponent(id)}`)
    expect(res.status).toBe(204)
    expect(ended).toEqual(['ended_by_owner'])
    expect((await (await api('GET', '/.admin/api/channels')).json()).channels).toEqual([])
  })
  test('an id no channel has → 404 not_found', async () => {
    const res = await api('DELETE', `/.admin/api/channels/${encodeURIComponent(`${BASE}/.notifications/WebSocketChannel2023/${'0'.repeat(32)}`)}`)
    expect(res.status).toBe(404)
    expect(await errorOf(res)).toBe('not_found')
  })
  test('a channel already ended → 404 not_found', async () => {
    const { id } = await openChannel()
    expect((await api('DELETE', `/.admin/api/channels/${encodeURIComponent(id)}`)).status).toBe(204)
    const again = await api('DELETE', `/.admin/api/channels/${encodeURIComponent(id)}`)
    expect(again.status).toBe(404)
    expect(await errorOf(again)).toBe('not_found')
  })
})

describe('the page without JavaScript', () => {
  testFormGuards(() => ctx, [['/.admin/live-updates/end', { id: 'x' }]])

  test('GET /.admin/live-updates without a session → 303 to the login page', async () => {
    const res = await pod.request('/.admin/live-updates')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${BASE}/.oidc/login?return=/.admin/live-updates`)
  })

  test('lists the channel with its document name decoded (spaces, accents, #?%+) and an End form that ends it', async () => {
    const { id, ended } = await openChannel({ webid: WEBID })
    const page = await (await pod.request('/.admin/live-updates', { headers: { cookie: ctx.owner.header() } })).text()
    expect(page).toContain('/notes été/café #?%+.ttl</a>')
    expect(page).toContain(`name="id" value="${id}"`)
    expect(page).toContain('WebSocket')
    // someone else's WebID as written (their name once their profile is read), never "You"
    expect(/<td data-label="Who">(.*?)<\/td>/.exec(page)?.[1]?.replace(/<[^>]+>/g, '')).toBe(WEBID)
    const res = await ctx.post('/.admin/live-updates/end', { csrf: ctx.csrf, id })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/live-updates?done=ended')
    expect(ended).toEqual(['ended_by_owner'])
    const after = await (await pod.request('/.admin/live-updates?done=ended', { headers: { cookie: ctx.owner.header() } })).text()
    expect(after).toContain('Subscription ended')
    expect(after).toContain('No subscriptions are open')
  })

  test('End of an id no channel has → 404 not_found', async () => {
    const res = await ctx.post('/.admin/live-updates/end', { csrf: ctx.csrf, id: `${BASE}/.notifications/WebSocketChannel2023/${'f'.repeat(32)}` })
    expect(res.status).toBe(404)
    expect(await pageError(res)).toBe('not_found')
  })
})
