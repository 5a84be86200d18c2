// Issue 40, "people by name": one decision (admin/person-label.ts agentLabel) for how every owner page names an
// agent — someone's WebID by the person's name, the owner and what is no WebID left to each page's own words — and
// the Grants page naming its grantees by it, the WebID one click away.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { agentLabel } from '../../src/admin/person-label.ts'
import { makePersonCards } from '../../src/account/person-cards.ts'
import type { FetchDoc } from '../../src/fetch/guarded-fetch.ts'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { APP, BOB, OWNER, POD, grant } from '../policy/grant-fixture.ts'

const FOAF = 'http://xmlns.com/foaf/0.1/'
/** Profiles on the agents' "network": Bob's names him (an accent, #, ?, %, + and markup in the name). */
const PROFILES: Record<string, string> = {
  'https://bob.example/profile/card': `<#me> a <${FOAF}Person>; <${FOAF}name> "Bób #1 ?50% a+b <i>".`,
}

describe('agentLabel', () => {
  const fetchDoc = (async (url: string) => {
    const body = PROFILES[url.replace(/#.*/, '')]
    if (!body) throw new Error(`no document at ${url}`)
    return { url, contentType: 'text/turtle', body, fetchedAt: 0 }
  }) as unknown as FetchDoc
  const people = makePersonCards(fetchDoc, () => 0)

  beforeAll(async () => {
    people.learn([BOB, OWNER])
    await people.settled()
  })

  test("someone's WebID → the person label: the name as text, linked to the WebID, the host beside it", () => {
    expect(String(agentLabel(people, BOB, OWNER))).toBe(
      `<span class="person"><a href="${BOB}" title="${BOB}" rel="noreferrer">Bób #1 ?50% a+b &lt;i&gt;</a> <span class="muted">(bob.example)</span></span>`,
    )
  })

  test('a WebID whose profile names nobody → the WebID as code', () => {
    expect(String(agentLabel(people, 'https://carol.example/#me', OWNER))).toBe('<code><span class="url">https://carol.example/<wbr><wbr>#me</span></code>')
  })

  test.each([
    ['the owner', OWNER],
    ['a URN', 'urn:uuid:0f1e'],
    ['a did:key', 'did:key:z6Mk'],
    ['a mailto', 'mailto:bob@example.org'],
  ])('%s → undefined: the page words it itself', (_, agent) => {
    expect(agentLabel(people, agent, OWNER)).toBeUndefined()
  })
})

describe('the Grants page names the grantee', () => {
  let pod: OwnerPod
  beforeAll(async () => {
    const fetchImpl = (async (target: URL | string, init?: RequestInit) => {
      const u = new URL(String(target))
      const body = PROFILES[`https://${new Headers(init?.headers).get('host')}${u.pathname}`]
      return body ? new Response(body, { headers: { 'content-type': 'text/turtle' } }) : new Response('not found', { status: 404 })
    }) as typeof fetch
    pod = await openOwnerPod(POD, { fetcher: { fetchImpl, lookup: async () => ['93.184.216.34'] } })
    for (const g of [grant(), grant({ grantee: APP, hasDataRegistration: `${POD}/photos/` })])
      expect((await pod.api('POST', '/.admin/api/grants', { body: g })).status).toBe(201)
  })
  afterAll(() => pod.close())
  const grantsPage = async () => (await pod.request('/.admin/grants', { headers: { cookie: pod.owner.header() } })).text()

  test('GET /.admin/grants → once the profile is read, the name linked to the WebID; an app without a name stays its id', async () => {
    await grantsPage()
    await pod.deps.people.settled()
    const page = await grantsPage()
    expect(page).toContain(
      `<td data-label="Grantee"><span class="person"><a href="${BOB}" title="${BOB}" rel="noreferrer">Bób #1 ?50% a+b &lt;i&gt;</a> <span class="muted">(bob.example)</span></span></td>`,
    )
    expect(page).toContain('<td data-label="Grantee"><code><span class="url">https://app.example/<wbr>id</span></code></td>')
  })
})
