// "Shared by me": everything the owner has shared, in one place — the access rules of every ACL that name someone
// other than the owner (people, groups, anyone signed in, the public, key holders), the share links, the access
// grants — with whom and how, each leading to where it is taken back (the share page's Remove, the link's and the
// grant's own Remove and Revoke forms).

import type { Deps } from '../deps.ts'
import type { PersonCards } from '../account/person-cards.ts'
import { sharedByMeNotice } from './shared-by-me-notices.ts'
import { agentCode, agentLabel } from './person-label.ts'
import { breakableUrl, html, type SafeHtml } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { localTime } from '../http/local-time.ts'
import { ownerWebIdOf } from '../config.ts'
import { ACL, FOAF } from '../rdf/namespaces.ts'
import { parseAclDocument, type Authorization } from '../policy/acl-document.ts'
import { listShareLinks } from '../account/share-links.ts'
import { readablePath } from '../lib/readable-path.ts'
import { governedBy } from '../store/acl-names.ts'
import { csrfField, renderOwnerPage } from './owner-page.ts'
import { ownerActing } from './owner-acting.ts'
import { readAclStatements } from './acl-statements.ts'
import { linksTable } from './links-page.ts'
import { sharePage } from './share-page.ts'

type SharedDeps = Pick<Deps, 'cfg' | 'store' | 'resources' | 'grants' | 'now' | 'people'> & Parameters<typeof renderOwnerPage>[0]

const PUBLIC = FOAF('Agent')
const SIGNED_IN = ACL('AuthenticatedAgent')
const MODE_WORDS: Record<string, string> = { read: 'read', append: 'add to', write: 'change', control: 'control' }
/** The modes in the order the share page names them; Write's own Append (acl-document.ts) is not said twice. */
const modeWords = (modes: ReadonlySet<string>) =>
  Object.keys(MODE_WORDS)
    .filter(m => modes.has(m) && !(m === 'append' && modes.has('write')))
    .map(m => MODE_WORDS[m]!)

/** One rule of an ACL that gives someone other than the owner access. */
export interface SharedRule {
  /** The resource it governs (stored path), whose share page takes it back. */
  readonly path: string
  /** With whom, as the owner reads it: "Anyone", "Anyone signed in", a WebID, "members of" a group, a key. */
  readonly with: string[]
  readonly modes: string[]
  /** It reaches the resource itself, what is inside (a folder's acl:default), or both. */
  readonly reaches: 'this' | 'inside' | 'both'
}

function withWhom(a: Authorization, owner: string): string[] {
  const out: string[] = []
  if (a.agentClasses.includes(PUBLIC)) out.push('Anyone')
  else if (a.agentClasses.includes(SIGNED_IN)) out.push('Anyone signed in')
  for (const agent of a.agents) if (agent !== owner) out.push(agent)
  for (const group of a.agentGroups) out.push(`members of ${group}`)
  for (const key of a.keys) out.push(`the holder of the key ${key}`)
  return out
}

/** Every rule of every ACL of the pod naming someone other than the owner, in path order. */
export async function readSharedRules(deps: SharedDeps): Promise<SharedRule[]> {
  const { baseUrl } = deps.cfg
  const owner = ownerWebIdOf(baseUrl)
  const out: SharedRule[] = []
  for (const aclPath of await deps.resources.aclDocuments(ownerActing(baseUrl))) {
    const aclUrl = baseUrl + aclPath
    const acl = await readAclStatements(deps, aclUrl)
    if (!acl) continue
    const path = governedBy(aclPath)
    for (const a of parseAclDocument(acl.triples, aclUrl)) {
      const whom = withWhom(a, owner)
      if (whom.length === 0) continue
      const self = a.accessTo.includes(baseUrl + path)
      const inside = a.default.includes(baseUrl + path)
      if (!self && !inside) continue
      out.push({ path, with: whom, modes: modeWords(a.modes), reaches: self && inside ? 'both' : self ? 'this' : 'inside' })
    }
  }
  return out
}

const REACHES = { this: 'it', inside: 'what is inside', both: 'it and what is inside' } as const

/** Whom a rule or a grant names: a person by name (agentLabel), a WebID or key as written, a class of agents in words. */
const whomLabel = (people: PersonCards, who: string, owner: string) => agentLabel(people, who, owner) ?? (who.startsWith('http') ? agentCode(who) : who)

function rulesTable(rules: readonly SharedRule[], whom: (who: string) => SafeHtml | string): SafeHtml {
  return html`<div class="table-wrap"><table class="stack" id="shared-rules"><caption class="visually-hidden">Access set in Sharing</caption>
<thead><tr><th scope="col">What</th><th scope="col">With</th><th scope="col">May</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${rules.map(
    r => html`<tr><td data-label="What"><a href="${sharePage(r.path)}"><code>${breakableUrl(readablePath(r.path))}</code></a></td>
<td data-label="With"><ul class="plain">${r.with.map(w => html`<li>${whom(w)}</li>`)}</ul></td>
<td data-label="May" class="words">${r.modes.join(', ')} ${REACHES[r.reaches]}</td>
<td><a class="small button secondary" href="${sharePage(r.path)}" aria-label="Change or remove access to ${readablePath(r.path)}">Change or remove</a></td></tr>`,
  )}</tbody></table></div>`
}

function grantsTable(
  grants: Awaited<ReturnType<SharedDeps['grants']['list']>>,
  base: string,
  csrf: string,
  whom: (who: string) => SafeHtml | string,
): SafeHtml {
  const short = (url: string) => (url.startsWith(`${base}/`) ? readablePath(url.slice(base.length)) : url)
  return html`<div class="table-wrap"><table class="stack" id="shared-grants"><caption class="visually-hidden">Access grants</caption>
<thead><tr><th scope="col">What</th><th scope="col">With</th><th scope="col">Since</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${grants.map(
    e => html`<tr><td data-label="What"><code>${breakableUrl(short(e.data.hasDataRegistration))}</code></td><td data-label="With">${whom(e.data.grantee)}</td>
<td data-label="Since" class="words">${localTime(e.createdAt)}</td>
<td><form method="post" action="${ADMIN_PATHS.grantsRevoke}" data-enhance="confirm" data-confirm="Revoke the grant for ${e.data.grantee}? The access ends with the next request.">${csrfField(csrf)}<input type="hidden" name="id" value="${e.id}"><input type="hidden" name="back" value="shared"><button type="submit" class="small secondary" aria-label="Revoke the grant for ${e.data.grantee} on ${short(e.data.hasDataRegistration)}">Revoke</button></form></td></tr>`,
  )}</tbody></table></div>`
}

export async function showSharedByMe(deps: SharedDeps, cookieHeader: string | null, done?: unknown): Promise<Response> {
  const now = deps.now()
  const owner = ownerWebIdOf(deps.cfg.baseUrl)
  const [rules, links, all] = await Promise.all([readSharedRules(deps), listShareLinks(deps.store, now), deps.grants.list({})])
  const grants = all.filter(g => g.data.grantee !== owner)
  deps.people.learn([...rules.flatMap(r => r.with), ...grants.map(g => g.data.grantee)].filter(w => w.startsWith('http')))
  const whom = (who: string) => whomLabel(deps.people, who, owner)
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Shared by me',
    section: ADMIN_PATHS.share,
    ...sharedByMeNotice(done),
    body: csrf => html`<p class="muted">Everything of your pod that someone other than you may use, and how. Take it back here, or on the item's sharing page.</p>
<section class="panel" aria-labelledby="rules-h"><h2 id="rules-h">Access set in Sharing</h2>
${rules.length ? rulesTable(rules, whom) : html`<p class="muted">You have given no one else access.</p>`}</section>
<section class="panel" aria-labelledby="links-h"><h2 id="links-h">Share links</h2>
${links.length ? linksTable(links, now, csrf, { back: 'shared' }) : html`<p class="muted">No share links.</p>`}</section>
<section class="panel" aria-labelledby="grants-h"><h2 id="grants-h">Access grants</h2>
${grants.length ? grantsTable(grants, deps.cfg.baseUrl, csrf, whom) : html`<p class="muted">No access grants.</p>`}</section>`,
  })
}
