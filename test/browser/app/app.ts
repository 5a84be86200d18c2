// A small Solid app on its own origin, bundled for the browser: it logs in with Inrupt's
// solid-client-authn-browser and works on pods with Inrupt's solid-client, as real apps do.
// The page has the buttons a person clicks; the data steps are exposed as `window.testApp`.

import { EVENTS, getDefaultSession, handleIncomingRedirect, login, logout } from '@inrupt/solid-client-authn-browser'
import {
  buildThing,
  createAclFromFallbackAcl,
  createContainerAt,
  createSolidDataset,
  createThing,
  getFile,
  getResourceAcl,
  getSolidDataset,
  getSolidDatasetWithAcl,
  getStringNoLocale,
  getThing,
  getUrl,
  hasAccessibleAcl,
  hasFallbackAcl,
  hasResourceAcl,
  overwriteFile,
  saveAclFor,
  saveSolidDatasetAt,
  setAgentResourceAccess,
  setStringNoLocale,
  setThing,
} from '@inrupt/solid-client'

const SOLID = 'http://www.w3.org/ns/solid/terms#'
const PIM = 'http://www.w3.org/ns/pim/space#'
const TITLE = 'http://purl.org/dc/terms/title'

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const session = getDefaultSession()
const redirectUrl = `${location.origin}/`
const events: string[] = []

function show() {
  $('status').textContent = session.info.isLoggedIn ? `Logged in as ${session.info.webId}` : 'Not logged in'
  $('logout').hidden = !session.info.isLoggedIn
}

function showError(text: string) {
  const box = $('error')
  box.textContent = text
  box.hidden = text === ''
}

async function startLogin(withClientId: boolean) {
  showError('')
  const oidcIssuer = $<HTMLInputElement>('issuer').value.trim()
  try {
    await login({
      oidcIssuer,
      redirectUrl,
      clientName: 'solopod test app',
      ...(withClientId ? { clientId: `${location.origin}/id.jsonld` } : {}),
    })
  } catch (err) {
    showError(`Login failed: ${String(err)}`)
  }
}

const fetchAs: typeof fetch = session.fetch

/** What the tests drive, step by step, with the logged-in session's fetch. */
const testApp = {
  info: () => ({ ...session.info }),
  events: () => [...events],
  async status(url: string, init?: RequestInit) {
    return (await fetchAs(url, init)).status
  },
  /** Without the session, as some clients do when anonymous: an empty Authorization and DPoP header. */
  async emptyCredentialsStatus(url: string) {
    return (await fetch(url, { headers: { authorization: '', dpop: '' } })).status
  },
  async readProfile() {
    const webId = session.info.webId!
    const profile = await getSolidDataset(webId, { fetch: fetchAs })
    const me = getThing(profile, webId)!
    return { issuer: getUrl(me, `${SOLID}oidcIssuer`), storage: getUrl(me, `${PIM}storage`) }
  },
  async createContainer(url: string) {
    await createContainerAt(url, { fetch: fetchAs })
  },
  async writeTitle(url: string, title: string) {
    const thing = buildThing(createThing({ name: 'it' }))
      .addStringNoLocale(TITLE, title)
      .build()
    await saveSolidDatasetAt(url, setThing(createSolidDataset(), thing), { fetch: fetchAs })
  },
  async readTitle(url: string) {
    const doc = await getSolidDataset(url, { fetch: fetchAs })
    return getStringNoLocale(getThing(doc, `${url}#it`)!, TITLE)
  },
  /** solid-client's own update (it PATCHes with SPARQL Update). */
  async changeTitle(url: string, title: string) {
    const doc = await getSolidDataset(url, { fetch: fetchAs })
    const thing = setStringNoLocale(getThing(doc, `${url}#it`)!, TITLE, title)
    await saveSolidDatasetAt(url, setThing(doc, thing), { fetch: fetchAs })
  },
  /** Solid Protocol §5.3.1 N3 Patch, sent with the session's fetch. */
  async n3Patch(url: string, oldTitle: string, newTitle: string) {
    const body = `@prefix solid: <http://www.w3.org/ns/solid/terms#>.
_:p a solid:InsertDeletePatch;
  solid:where { <${url}#it> <${TITLE}> "${oldTitle}" };
  solid:deletes { <${url}#it> <${TITLE}> "${oldTitle}" };
  solid:inserts { <${url}#it> <${TITLE}> "${newTitle}" }.`
    return (await fetchAs(url, { method: 'PATCH', headers: { 'content-type': 'text/n3' }, body })).status
  },
  async uploadBinary(url: string, bytes: number[], contentType: string) {
    await overwriteFile(url, new Blob([new Uint8Array(bytes)], { type: contentType }), { fetch: fetchAs })
    const back = await getFile(url, { fetch: fetchAs })
    return { contentType: back.type, bytes: [...new Uint8Array(await back.arrayBuffer())] }
  },
  /** WAC: gives `agent` Read on `url` by writing the resource's own ACL (made from the inherited one). */
  async shareRead(url: string, agent: string) {
    const doc = await getSolidDatasetWithAcl(url, { fetch: fetchAs })
    if (!hasAccessibleAcl(doc)) throw new Error('the pod did not advertise an ACL we may change')
    const acl = hasResourceAcl(doc) ? getResourceAcl(doc) : hasFallbackAcl(doc) ? createAclFromFallbackAcl(doc) : null
    if (!acl) throw new Error('no ACL could be read for this resource')
    const ownerKept = setAgentResourceAccess(acl, session.info.webId!, { read: true, append: true, write: true, control: true })
    await saveAclFor(doc, setAgentResourceAccess(ownerKept, agent, { read: true, append: false, write: false, control: false }), { fetch: fetchAs })
  },
}

declare global {
  interface Window {
    testApp: typeof testApp
  }
}
window.testApp = testApp

session.events.on(EVENTS.SESSION_RESTORED, () => {
  events.push('restored')
  show()
})
session.events.on(EVENTS.LOGIN, () => {
  events.push('login')
  show()
})
session.events.on(EVENTS.LOGOUT, () => {
  events.push('logout')
  show()
})
session.events.on(EVENTS.ERROR, (code: string | null, description?: string | Error | null) => {
  events.push(`error:${code}`)
  showError(`The provider refused: ${code ?? 'unknown error'}${description ? ` — ${String(description)}` : ''}`)
})

$('login').addEventListener('click', () => void startLogin(false))
$('login-cid').addEventListener('click', () => void startLogin(true))
$('logout').addEventListener('click', () => void logout().then(show))

// OAuth 2.0 (RFC 6749 §4.1.2.1): a refusal comes back as ?error=…; the page says so
const params = new URLSearchParams(location.search)
const refused = params.get('error')
handleIncomingRedirect({ restorePreviousSession: true })
  .catch((err: unknown) => showError(`Login failed: ${String(err)}`))
  .finally(() => {
    if (refused) showError(`The provider refused: ${refused}${params.get('error_description') ? ` — ${params.get('error_description')}` : ''}`)
    show()
    document.body.dataset.ready = 'true'
  })
