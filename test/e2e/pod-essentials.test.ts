// What the pod itself depends on, over real HTTP: the owner's WebID document (with solid:oidcIssuer and
// pim:storage, readable by the public), /keys/, the root and the access that keeps them usable cannot be
// deleted or made unusable by any request of the owner: LDP, the owner's forms without JavaScript.
// Each refusal has its exact status and code, and leaves everything as it was.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { OWNER_PASSWORD, startPod, type RunningPod } from './start-server.ts'
import { CookieJar, FORM, field, form } from '../op/op-fixture.ts'
import { expectRsError, hasTriple, parseTurtle, withBody, withTurtle } from '../rs/rs-helpers.ts'
import { openStore } from '../../src/store/open-store.ts'
import { deleteResource } from '../../src/store/resources.ts'
import { writeTurtle } from './seed-store.ts'

const SOLID = (l: string) => `http://www.w3.org/ns/solid/terms#${l}`
const PIM = (l: string) => `http://www.w3.org/ns/pim/space#${l}`
const PREFIXES = `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
@prefix foaf: <http://xmlns.com/foaf/0.1/>.
@prefix solid: <http://www.w3.org/ns/solid/terms#>.
@prefix pim: <http://www.w3.org/ns/pim/space#>.
`

let pod: RunningPod
let base = ''
let webid = ''
let csrf = ''
const owner = new CookieJar()

beforeAll(async () => {
  pod = await startPod()
  base = pod.baseUrl
  webid = `${base}/profile/card#me`
  const page = await owner.take(await fetch(`${base}/.oidc/login`)).text()
  const login = owner.take(
    await fetch(`${base}/.oidc/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': FORM, cookie: owner.header(), origin: base },
      body: form({ csrf: field(page, 'csrf'), interaction: '', return: '', password: OWNER_PASSWORD }),
    }),
  )
  if (login.status >= 400) throw new Error(`owner login failed: ${login.status}`)
  const files = await owner.take(await fetch(`${base}/.admin/files`, { headers: { cookie: owner.header() } })).text()
  csrf = /name="csrf" value="([^"]+)"/.exec(files)![1]!
}, 60_000)
afterAll(() => pod?.dispose())

/** The owner through the resource server, as the dashboard calls it (session cookie, same origin, CSRF token). */
const asOwner = (path: string, init: RequestInit = {}) =>
  fetch(base + path, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: owner.header(), origin: base, 'x-csrf-token': csrf },
  })
const anonymous = (path: string) => fetch(base + path)
/** An owner's form post (the pages that work without JavaScript). */
const post = (path: string, fields: Record<string, string>) =>
  fetch(base + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': FORM, cookie: owner.header(), origin: base },
    body: form({ ...fields, csrf }),
  })
const pageError = async (res: Response) => /id="error">([a-z_]+)</.exec(await res.text())?.[1]

const ESSENTIAL = ['/', '/.acl', '/profile/card', '/profile/card.acl', '/keys/', '/keys/.acl']
/** Every essential resource's ETag and Turtle, as the owner reads them, and what the public may read. */
async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const path of ESSENTIAL) {
    const res = await asOwner(path, { headers: { accept: 'text/turtle' } })
    out[path] = `${res.status} ${res.headers.get('etag')} ${await res.text()}`
  }
  out['public /profile/card'] = String((await anonymous('/profile/card')).status)
  out['public /keys/'] = String((await anonymous('/keys/')).status)
  return out
}
/** Runs `refused` and checks it changed none of the essential resources. */
async function unchanged(refused: () => Promise<void>) {
  const before = await snapshot()
  expect(before['public /profile/card']).toBe('200')
  await refused()
  expect(await snapshot()).toEqual(before)
}

const cardAcl = (rules: string) =>
  `${PREFIXES}<#owner> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <card>; acl:mode acl:Read, acl:Write, acl:Control.\n${rules}`
const PUBLIC_CARD = '<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <card>; acl:mode acl:Read.'
const card = (extra: string) => `${PREFIXES}<> a foaf:PersonalProfileDocument; foaf:primaryTopic <#me>.\n<#me> a foaf:Person; ${extra}.`
const n3Delete = (triple: string) => `@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:deletes { ${triple} }.`

describe('the resources the pod depends on cannot be deleted', () => {
  test('DELETE /profile/card (the WebID document) → 409 protected_resource', async () => {
    await unchanged(async () => {
      const text = await expectRsError(await asOwner('/profile/card', { method: 'DELETE' }), 409, 'protected_resource')
      expect(text).toContain('WebID document')
    })
  })

  test('DELETE /keys/ → 409 protected_resource, even with If-Match of its ETag', async () => {
    const etag = (await asOwner('/keys/')).headers.get('etag')!
    await unchanged(async () => {
      await expectRsError(await asOwner('/keys/', { method: 'DELETE', headers: { 'if-match': etag } }), 409, 'protected_resource')
    })
  })

  test('DELETE / → 405 root_protected', async () => {
    await unchanged(async () => {
      await expectRsError(await asOwner('/', { method: 'DELETE' }), 405, 'root_protected')
    })
  })

  test.each([
    ['/profile/card.acl', 'Read of /profile/card'],
    ['/keys/.acl', 'Read of /keys/'],
  ])('DELETE %s (the public would lose %s) → 409 protected_access', async (path, lost) => {
    await unchanged(async () => {
      const text = await expectRsError(await asOwner(path, { method: 'DELETE' }), 409, 'protected_access')
      expect(text).toContain(lost)
    })
  })

  test('the Delete form without JavaScript: 409 protected_resource on its page', async () => {
    await unchanged(async () => {
      const res = await post('/.admin/delete', { path: '/profile/card' })
      expect(res.status).toBe(409)
      expect(await pageError(res)).toBe('protected_resource')
    })
  })

  test('anonymous DELETE /profile/card is still 401: nothing is told before access', async () => {
    await expectRsError(await fetch(`${base}/profile/card`, { method: 'DELETE' }), 401, 'unauthenticated')
  })
})

describe('the WebID document keeps solid:oidcIssuer and pim:storage', () => {
  test('PUT of a card with only foaf:name → 409 webid_statement_required naming both statements', async () => {
    await unchanged(async () => {
      const text = await expectRsError(
        await asOwner('/profile/card', withTurtle('PUT', `<#me> <http://xmlns.com/foaf/0.1/name> "Alice".`)),
        409,
        'webid_statement_required',
      )
      expect(text).toContain(`<#me> solid:oidcIssuer <${base}>`)
      expect(text).toContain(`<#me> pim:storage <${base}/>`)
    })
  })

  test('PUT of a card without pim:storage → 409 naming only pim:storage', async () => {
    await unchanged(async () => {
      const text = await expectRsError(await asOwner('/profile/card', withTurtle('PUT', card(`solid:oidcIssuer <${base}>`))), 409, 'webid_statement_required')
      expect(text).toContain('pim:storage')
      expect(text).not.toContain('solid:oidcIssuer <')
    })
  })

  test('PUT of a card naming another issuer only → 409', async () => {
    await unchanged(async () => {
      await expectRsError(
        await asOwner('/profile/card', withTurtle('PUT', card(`solid:oidcIssuer <https://elsewhere.example>; pim:storage <${base}/>`))),
        409,
        'webid_statement_required',
      )
    })
  })

  test('PUT of a binary over the card → 409 webid_statement_required', async () => {
    await unchanged(async () => {
      await expectRsError(await asOwner('/profile/card', withBody('PUT', 'text/plain', 'gone')), 409, 'webid_statement_required')
    })
  })

  test('N3 PATCH deleting solid:oidcIssuer → 409', async () => {
    await unchanged(async () => {
      await expectRsError(
        await asOwner('/profile/card', withBody('PATCH', 'text/n3', n3Delete(`<${webid}> <${SOLID('oidcIssuer')}> <${base}>.`))),
        409,
        'webid_statement_required',
      )
    })
  })

  test('SPARQL Update deleting pim:storage → 409', async () => {
    await unchanged(async () => {
      const update = `DELETE DATA { <${webid}> <${PIM('storage')}> <${base}/> }`
      await expectRsError(await asOwner('/profile/card', withBody('PATCH', 'application/sparql-update', update)), 409, 'webid_statement_required')
    })
  })

  test('a PUT that keeps both statements is accepted, and the public still reads them', async () => {
    expect((await asOwner('/profile/card', withTurtle('PUT', card(`foaf:name "Alice"; solid:oidcIssuer <${base}>; pim:storage <${base}/>`)))).status).toBe(204)
    const res = await anonymous('/profile/card')
    expect(res.status).toBe(200)
    const quads = parseTurtle(await res.text(), `${base}/profile/card`)
    expect(hasTriple(quads, webid, SOLID('oidcIssuer'), base)).toBe(true)
    expect(hasTriple(quads, webid, PIM('storage'), `${base}/`)).toBe(true)
  })
})

describe("ACL writes keep the public's Read of the WebID document and the owner's access", () => {
  test('PUT /profile/card.acl without the public rule → 409 protected_access', async () => {
    await unchanged(async () => {
      const text = await expectRsError(await asOwner('/profile/card.acl', withTurtle('PUT', cardAcl(''))), 409, 'protected_access')
      expect(text).toContain("the public's Read of /profile/card")
    })
  })

  test('PUT /profile/card.acl whose public Read is limited by acl:origin → 409', async () => {
    await unchanged(async () => {
      await expectRsError(
        await asOwner('/profile/card.acl', withTurtle('PUT', cardAcl(`${PUBLIC_CARD.slice(0, -1)}; acl:origin <https://app.example>.`))),
        409,
        'protected_access',
      )
    })
  })

  test("PUT /profile/card.acl leaving the owner Read only → 409 naming the owner's access", async () => {
    const acl = `${PREFIXES}<#owner> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <card>; acl:mode acl:Read.\n${PUBLIC_CARD}`
    await unchanged(async () => {
      const text = await expectRsError(await asOwner('/profile/card.acl', withTurtle('PUT', acl)), 409, 'protected_access')
      expect(text).toContain("the owner's Read, Write and Control of /profile/card")
    })
  })

  test("N3 PATCH of /profile/card.acl removing the public's Read → 409", async () => {
    await unchanged(async () => {
      const patch = n3Delete(`<${base}/profile/card.acl#public> <http://www.w3.org/ns/auth/acl#mode> <http://www.w3.org/ns/auth/acl#Read>.`)
      await expectRsError(await asOwner('/profile/card.acl', withBody('PATCH', 'text/n3', patch)), 409, 'protected_access')
    })
  })

  test('PUT /keys/.acl with no public default → 409 (new key documents would be private)', async () => {
    const acl = `${PREFIXES}<#owner> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <./>; acl:mode acl:Read.`
    await unchanged(async () => {
      const text = await expectRsError(await asOwner('/keys/.acl', withTurtle('PUT', acl)), 409, 'protected_access')
      expect(text).toContain('new key documents')
    })
  })

  test("PUT /.acl without the owner's Control → 409 owner_lockout (that check comes first)", async () => {
    const acl = `${PREFIXES}<#o> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write.`
    await unchanged(async () => {
      await expectRsError(await asOwner('/.acl', withTurtle('PUT', acl)), 409, 'owner_lockout')
    })
  })

  test('"Use inherited access" for /profile/card without JavaScript → 409 protected_access on its page', async () => {
    const version = (await asOwner('/profile/card.acl', { method: 'HEAD' })).headers.get('etag')!
    await unchanged(async () => {
      const res = await post('/.admin/share/inherit', { path: '/profile/card', version })
      expect(res.status).toBe(409)
      expect(await pageError(res)).toBe('protected_access')
    })
  })

  test("removing the public's row of /profile/card without JavaScript → 409 protected_access", async () => {
    const html = await (await fetch(`${base}/.admin/share?path=%2Fprofile%2Fcard`, { headers: { cookie: owner.header() } })).text()
    const version = /name="version" value="([^"]*)"/.exec(html)![1]!.replaceAll('&quot;', '"')
    // the rows are in document order: the owner's, then the public's
    await unchanged(async () => {
      const res = await post('/.admin/share/remove', { path: '/profile/card', entry: '1', version })
      expect(res.status).toBe(409)
      expect(await pageError(res)).toBe('protected_access')
    })
  })

  test('an ACL that keeps everything and adds a rule is accepted', async () => {
    const friend = '<#friend> a acl:Authorization; acl:agent <https://friend.example/profile#me>; acl:accessTo <card>; acl:mode acl:Read.'
    expect((await asOwner('/profile/card.acl', withTurtle('PUT', cardAcl(`${PUBLIC_CARD}\n${friend}`)))).status).toBe(204)
    expect((await anonymous('/profile/card')).status).toBe(200)
  })
})

describe('protected paths are exact', () => {
  test.each(['/profile/card%20x', '/profile/c%C3%A4rd', '/profile/card2', '/keys/k1'])('%s: created with only foaf:name, made private, deleted', async path => {
    expect((await asOwner(path, withTurtle('PUT', '<#me> <http://xmlns.com/foaf/0.1/name> "x".'))).status).toBe(201)
    const url = base + path
    const acl = `${PREFIXES}<#o> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <${url}>; acl:mode acl:Read, acl:Write, acl:Control.`
    expect((await asOwner(`${path}.acl`, withTurtle('PUT', acl))).status).toBe(201)
    expect((await asOwner(`${path}.acl`, { method: 'DELETE' })).status).toBe(204)
    expect((await asOwner(path, { method: 'DELETE' })).status).toBe(204)
  })

  test('a folder under /keys/ with its own ACL can be made private and deleted', async () => {
    expect((await asOwner('/keys/old/', withTurtle('PUT', ''))).status).toBe(201)
    const acl = `${PREFIXES}<#o> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`
    expect((await asOwner('/keys/old/.acl', withTurtle('PUT', acl))).status).toBe(201)
    expect((await asOwner('/keys/old/', { method: 'DELETE' })).status).toBe(204)
    expect((await anonymous('/keys/')).status).toBe(200)
  })
})

describe('a pod damaged before these checks is repaired at start', () => {
  let damaged: RunningPod
  beforeAll(async () => {
    // the first start makes the pod; the seed then damages it as the old dashboard could; the second start repairs it
    damaged = await startPod({
      seed: async (dataDir, seedBase) => {
        const store = await openStore(dataDir)
        try {
          for (const path of ['/profile/card.acl', '/keys/.acl', '/keys/']) await deleteResource(store, seedBase, path, Date.now())
          await writeTurtle(store, seedBase, '/profile/card', '<#me> <http://xmlns.com/foaf/0.1/name> "Alice".')
        } finally {
          await store.close()
        }
      },
    })
  }, 60_000)
  afterAll(() => damaged?.dispose())

  test("the WebID document is public again, with its issuer, storage link and the owner's name", async () => {
    const b = damaged.baseUrl
    const res = await fetch(`${b}/profile/card`)
    expect(res.status).toBe(200)
    const quads = parseTurtle(await res.text(), `${b}/profile/card`)
    expect(hasTriple(quads, `${b}/profile/card#me`, SOLID('oidcIssuer'), b)).toBe(true)
    expect(hasTriple(quads, `${b}/profile/card#me`, PIM('storage'), `${b}/`)).toBe(true)
    expect(quads.some(q => q.object.value === 'Alice')).toBe(true)
    expect(damaged.stdout()).toContain('start.essentials_repaired')
  })

  test('/keys/ exists again and is public', async () => {
    expect((await fetch(`${damaged.baseUrl}/keys/`)).status).toBe(200)
  })
})
