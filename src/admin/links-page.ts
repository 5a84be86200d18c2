// Share links in the dashboard (issue 38): the Links page lists every link (name, what it opens, what it allows,
// when it expires, how often it was used) with a Remove button; the share page makes a link for its item and
// lists that item's links. A new link's URL is shown once, on the page its form answers: the pod keeps only
// the token's hash (account/share-links.ts), so it cannot be shown again, and a 303 would have to carry it.

import { sharedByMeDone } from './shared-by-me-notices.ts'
import { linkQrCode } from './link-qr-code.ts'
import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { breakableUrl, html, type SafeHtml } from '../http/html-page.ts'
import { ADMIN_PATHS, LINK_PATHS } from '../http/pod-paths.ts'
import {
  addShareLink,
  isLinkLive,
  listShareLinks,
  removeShareLink,
  DAY_MS,
  MAX_DOWNLOADS,
  MAX_LINK_PASSWORD,
  type LinkAllows,
  type ShareLink,
} from '../account/share-links.ts'
import {
  defaultExpiryChoices,
  durationText,
  durationWords,
  getLinkExpirySettings,
  linkExpiryChoices,
  maxExpiryChoices,
  parseLinkDuration,
  saveLinkExpirySettings,
  type LinkExpirySettings,
} from '../account/link-expiry.ts'
import { readablePath } from '../lib/readable-path.ts'
import { csrfField, renderOwnerPage, seeOther } from './owner-page.ts'
import { ownerActing } from './owner-acting.ts'
import { podPath } from './browse.ts'
import { linkModes } from '../policy/link-access.ts'
import { ACCESS_MODES, type AccessMode } from '../policy/access-modes.ts'
import { LINK_REMOVED } from './taken-back-words.ts'
import { countOf } from '../lib/count-words.ts'

type LinkDeps = Pick<Deps, 'cfg' | 'store' | 'resources' | 'now' | 'linkUses'>

const ALLOWS_WORDS: Record<LinkAllows, string> = { read: 'View and download', upload: 'Upload only', 'read-upload': 'View and upload' }

const HOUR_MS = 3_600_000

/**
 * "in 7 days", "in 3 hours", "expired", "never": what the owner needs to decide whether to remove it. Rounded to
 * the nearest day or hour, so a 7-day link made a minute ago says 7 days, not 6; under an hour it says so.
 */
export function expiresText(l: ShareLink, now: number): string {
  if (l.expiresAt === undefined) return 'never'
  const left = l.expiresAt - now
  if (left <= 0) return 'expired'
  if (left >= DAY_MS - HOUR_MS / 2) return `in ${countOf(Math.max(1, Math.round(left / DAY_MS)), 'day')}`
  return left >= HOUR_MS ? `in ${countOf(Math.round(left / HOUR_MS), 'hour')}` : 'in less than an hour'
}

const linksOnePage = (done?: string) => `${ADMIN_PATHS.links}${done ? `?done=${done}` : ''}`
const shareOf = (path: string, done?: string) => `${ADMIN_PATHS.share}?path=${encodeURIComponent(path)}${done ? `&done=${done}` : ''}`

/** Whether a link lasts longer than a new one could now: the owner lowered the maximum after making it. */
const beyondMaximum = (l: ShareLink, s: LinkExpirySettings, now: number) => s.maxMs !== null && (l.expiresAt === undefined || l.expiresAt > now + s.maxMs)

/**
 * The links as a table, each with its Remove form; `from` set: the share page of that path, which the form returns to;
 * `settings` set: the links beyond the owner's maximum are marked.
 */
/**
 * `from`: the share page of this item, where Remove leads back; `back: 'shared'`: the Shared by me page, likewise;
 * else the Links page.
 */
export function linksTable(
  links: readonly ShareLink[],
  now: number,
  csrf: string,
  o: { from?: string; back?: 'shared'; settings?: LinkExpirySettings } = {},
): SafeHtml {
  const { from, back, settings } = o
  // On a share page, the folder a link opens is said when it is not the page's own item
  const opens = from === undefined || links.some(l => l.path !== from)
  return html`<div class="table-wrap"><table class="stack"><caption class="visually-hidden">Share links</caption>
<thead><tr><th scope="col">Name</th>${opens ? html`<th scope="col">Opens</th>` : ''}<th scope="col">Allows</th><th scope="col">Expires</th><th scope="col">Uses</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${links.map(
    l => html`<tr><td data-label="Name">${l.name || html`<span class="muted">(no name)</span>`}</td>
${opens ? html`<td data-label="Opens"><a href="${shareOf(l.path)}"><code>${breakableUrl(readablePath(l.path))}</code></a></td>` : ''}<td data-label="Allows">${ALLOWS_WORDS[l.allows]}${l.passwordHash !== undefined ? ', with a password' : ''}${
      l.maxDownloads !== undefined ? `, ${l.downloads ?? 0} of ${l.maxDownloads} downloads` : ''
    }</td><td data-label="Expires">${expiresText(l, now)}${
      settings !== undefined && beyondMaximum(l, settings, now) ? html` <span class="muted">(beyond your maximum)</span>` : ''
    }</td><td data-label="Uses">${String(l.uses)}</td>
<td><form method="post" action="${ADMIN_PATHS.linksRemove}" data-enhance="confirm" data-confirm="Remove the link ${l.name ? `“${l.name}” ` : ''}to ${readablePath(l.path)}? Whoever holds it can no longer open it. This cannot be undone: a new link has a new address.">${csrfField(csrf)}<input type="hidden" name="id" value="${l.id}">${from !== undefined ? html`<input type="hidden" name="from" value="${from}">` : ''}${back !== undefined ? html`<input type="hidden" name="back" value="${back}">` : ''}<button type="submit" class="small secondary" aria-label="Remove link ${l.name || readablePath(l.path)}">Remove</button></form></td></tr>`,
  )}</tbody></table></div>`
}

const DONE: Record<string, string> = {
  removed: LINK_REMOVED,
  settings: 'Expiry settings saved: they apply to new links; the links already made keep their expiry',
}

export async function showLinksPage(deps: LinkDeps, request: Request, query: Record<string, unknown>): Promise<Response> {
  const now = deps.now()
  const links = await listShareLinks(deps.store, now, deps.linkUses.pending)
  const settings = await getLinkExpirySettings(deps.store)
  const beyond = links.filter(l => beyondMaximum(l, settings, now)).length
  const done = typeof query.done === 'string' ? DONE[query.done] : undefined
  return renderOwnerPage(deps, request.headers.get('cookie'), {
    heading: 'Share links',
    section: ADMIN_PATHS.links,
    ...(done !== undefined ? { notice: done } : {}),
    body: csrf => html`<p class="muted">Anyone holding one of these links may use it without an account, until it expires or you remove it. Make one from the sharing page of a file or folder (Files, then Share).</p>
${links.length === 0 ? html`<p class="muted">No share links yet.</p>` : linksTable(links, now, csrf, { settings })}
${beyond > 0 ? html`<p class="muted">${countOf(beyond, 'link')} last${beyond === 1 ? 's' : ''} longer than your maximum now allows: a lower maximum applies to new links only, so remove those you no longer want.</p>` : ''}
${expirySettingsForm(settings, csrf)}`,
  })
}

/** A select's options for expiries (null: none), `chosen` selected; `none` is how the form spells null and what it says. */
const expiryOptions = (choices: readonly (number | null)[], none: { value: 'never' | 'none'; words: string }, chosen: number | null) =>
  choices.map(ms => {
    const selected = ms === chosen ? html` selected` : ''
    return html`<option value="${durationText(ms, none.value)}"${selected}>${ms === null ? none.words : durationWords(ms)}</option>`
  })

/** The owner's default and maximum for new links; "never" is offered as a default, and refused unless there is no maximum. */
function expirySettingsForm(s: LinkExpirySettings, csrf: string): SafeHtml {
  return html`<section class="panel" aria-labelledby="expiry-h"><h2 id="expiry-h">Expiry of new links</h2>
<p class="muted">A new link lasts the default unless its maker chooses otherwise, and never longer than the maximum. A link that never expires can be made only with no maximum. Changing these leaves the links already made as they are.</p>
<form method="post" action="${ADMIN_PATHS.linksSettings}" class="row-form">${csrfField(csrf)}
<div><label for="default-expiry">Default expiry</label><select id="default-expiry" name="defaultExpiry">${expiryOptions(defaultExpiryChoices(s), { value: 'never', words: 'Never (only with no maximum)' }, s.defaultMs)}</select></div>
<div><label for="max-expiry">Maximum expiry</label><select id="max-expiry" name="maxExpiry">${expiryOptions(maxExpiryChoices(s), { value: 'none', words: 'No maximum (links may never expire)' }, s.maxMs)}</select></div>
<div><button type="submit">Save</button></div></form></section>`
}

/** "Save" of the expiry settings: back to the Links page, which says so; a pair the rule refuses changes nothing (400). */
export async function saveLinkSettingsFromForm(deps: LinkDeps, form: Record<string, unknown>): Promise<Response> {
  const text = (v: unknown, name: string) => {
    if (typeof v !== 'string' || v === '') throw invalid(`${name}: a duration such as 7d, or never / none`)
    return v
  }
  const defaultMs = parseLinkDuration(text(form.defaultExpiry, 'defaultExpiry'), 'defaultExpiry', 'never', invalid)!
  const maxMs = parseLinkDuration(text(form.maxExpiry, 'maxExpiry'), 'maxExpiry', 'none', invalid)!
  await saveLinkExpirySettings(deps.store, { defaultMs, maxMs })
  return seeOther(linksOnePage('settings'))
}

/**
 * The links that reach `path`, for its share page: its own, and a folder's above it that opens it (as the one
 * decider says: policy/link-access.ts), expired ones too, so they can be removed.
 */
export const linksOf = async (deps: LinkDeps, path: string) =>
  (await listShareLinks(deps.store, deps.now(), deps.linkUses.pending)).filter(l => l.path === path || linkModes(l, path).size > 0)

/** The live links that open `path` now, with the modes each gives there: what "Why may someone do something here?" names. */
export async function linksOpening(deps: Pick<Deps, 'store' | 'now'>, path: string): Promise<{ link: ShareLink; modes: AccessMode[] }[]> {
  const now = deps.now()
  return (await listShareLinks(deps.store, now))
    .filter(l => isLinkLive(l, now))
    .map(link => ({ link, modes: ACCESS_MODES.filter(m => linkModes(link, path).has(m)) }))
    .filter(l => l.modes.length > 0)
}

/** One link for the "why?" answer: its name, what it allows here, its expiry, and the folder it opens when not this item. */
export function linkReason(l: { link: ShareLink; modes: readonly AccessMode[] }, path: string, now: number): SafeHtml {
  const { link } = l
  return html`<li>${link.name ? `“${link.name}”` : html`<span class="muted">(no name)</span>`} <code>${link.id}</code>: ${ALLOWS_WORDS[link.allows].toLowerCase()} (here: ${l.modes.join(', ')})${
    link.path === path ? '' : html`, through the link to <a href="${shareOf(link.path)}"><code>${readablePath(link.path)}</code></a>`
  }; ${link.expiresAt === undefined ? 'never expires' : `expires ${expiresText(link, now)}`}${link.passwordHash !== undefined ? '; with a password' : ''}</li>`
}

/**
 * The share page's "Send a link to anyone": the form, and the links this item already has (`linksOf`). It offers
 * only the expiries the owner's settings allow, the default chosen.
 */
export function linkSection(path: string, links: readonly ShareLink[], settings: LinkExpirySettings, now: number, csrf: string): SafeHtml {
  const folder = path.endsWith('/')
  const choices: LinkAllows[] = folder ? ['read', 'upload', 'read-upload'] : ['read']
  return html`<section class="panel" aria-labelledby="link-h"><h2 id="link-h">Send a link to anyone</h2>
<p class="muted">Whoever holds the link may use it without an account or a pod, until it expires or you remove it. <a href="${ADMIN_PATHS.links}">All share links</a></p>
<form method="post" action="${ADMIN_PATHS.linksAdd}" class="row-form">${csrfField(csrf)}<input type="hidden" name="path" value="${path}">
<fieldset><legend>It allows</legend>${choices.map(
    (a, i) => html`<label class="check"><input type="radio" name="allows" value="${a}"${i === 0 ? html` checked` : ''}> ${ALLOWS_WORDS[a]}</label>`,
  )}</fieldset>
<div><label for="link-expires">Expires after</label><select id="link-expires" name="expires">${expiryOptions(linkExpiryChoices(settings), { value: 'never', words: 'Never' }, settings.defaultMs)}</select></div>
<div><label for="link-name">Name (optional)</label><input type="text" id="link-name" name="name" maxlength="100" placeholder="for the plumber" autocomplete="off"></div>
<div><label for="link-password">Password (optional)</label><input type="password" id="link-password" name="password" maxlength="${String(MAX_LINK_PASSWORD)}" autocomplete="new-password" aria-describedby="link-password-hint"><p class="hint" id="link-password-hint">The link then opens only with it: send it another way.</p></div>
<div><label for="link-max-downloads">Download limit (optional)</label><input type="number" id="link-max-downloads" name="maxDownloads" min="1" max="${String(MAX_DOWNLOADS)}" step="1" inputmode="numeric" aria-describedby="link-max-downloads-hint"><p class="hint" id="link-max-downloads-hint">Whole downloads allowed, then the link opens nothing.</p></div>
<div><button type="submit">Create link</button></div></form>
${links.length > 0 ? linksTable(links, now, csrf, { from: path, settings }) : ''}</section>`
}

const invalid = (description: string) => new HttpError(400, 'invalid_field', description)

/** The form's download limit: empty for none, else a whole number in the range the store takes. */
function downloadLimitOf(value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined
  const n = typeof value === 'string' && /^\d{1,7}$/.test(value.trim()) ? Number(value.trim()) : NaN
  if (!(n >= 1 && n <= MAX_DOWNLOADS)) throw invalid(`maxDownloads: a whole number from 1 to ${MAX_DOWNLOADS}, or empty for no limit`)
  return n
}

/** "Create link": the new link's URL, shown now and never again, with the way back. */
export async function createLinkFromForm(deps: LinkDeps, request: Request, form: Record<string, unknown>): Promise<Response> {
  const path = podPath(form.path)
  // As the owner, through the operations layer: 404 not_found for an item that is not there
  await deps.resources.read(ownerActing(deps.cfg.baseUrl), path)
  const allows = form.allows ?? 'read'
  if (allows !== 'read' && allows !== 'upload' && allows !== 'read-upload') throw invalid('allows: one of read, upload, read-upload')
  // Any duration the command line takes; none: the owner's default. Whether it is allowed, addShareLink says
  const lifetimeMs = typeof form.expires === 'string' && form.expires !== '' ? parseLinkDuration(form.expires, 'expires', 'never', invalid) : undefined
  // Empty fields are the choices not made: no password, no limit
  const password = typeof form.password === 'string' && form.password !== '' ? form.password : undefined
  const maxDownloads = downloadLimitOf(form.maxDownloads)
  const { link, token } = await addShareLink(
    deps.store,
    {
      path,
      allows,
      ...(lifetimeMs !== undefined ? { lifetimeMs } : {}),
      ...(typeof form.name === 'string' ? { name: form.name } : {}),
      ...(password !== undefined ? { password } : {}),
      ...(maxDownloads !== undefined ? { maxDownloads } : {}),
    },
    deps.now(),
  )
  const url = `${deps.cfg.baseUrl}${LINK_PATHS.base}${token}/`
  const qrCode = await linkQrCode(url)
  return renderOwnerPage(deps, request.headers.get('cookie'), {
    heading: 'Link created',
    section: ADMIN_PATHS.share,
    body: () => html`<section class="panel" aria-labelledby="new-link-h"><h2 id="new-link-h">Send this link</h2>
<p>Anyone holding it may <strong>${ALLOWS_WORDS[link.allows].toLowerCase()}</strong> ${readablePath(link.path)}; it expires ${expiresText(link, deps.now())}.${
      link.passwordHash !== undefined ? ' It asks for the password you chose: send that another way (a message, a call), not with the link.' : ''
    }${link.maxDownloads !== undefined ? ` It allows ${countOf(link.maxDownloads, 'whole download')}, then opens nothing.` : ''}</p>
<div><label for="new-link">The link</label><input type="text" readonly id="new-link" value="${url}" data-enhance="copy-link"></div>
<figure class="qr">${qrCode}<figcaption>Or open it on a phone: point its camera here.</figcaption></figure>
<p class="warning" role="note">Copy it now: it is shown only this once. The pod keeps only a fingerprint of it, so it cannot show it again; if it is lost, remove it and make a new one.</p>
<p><a class="button secondary" href="${shareOf(link.path)}">Back to sharing</a> <a href="${ADMIN_PATHS.links}">All share links</a></p></section>`,
  })
}

/** "Remove": back to the page the form was on (its share page, Shared by me or the Links page), which says so; 404 `link_not_found` for a link already gone. */
export async function removeLinkFromForm(deps: LinkDeps, form: Record<string, unknown>): Promise<Response> {
  const id = typeof form.id === 'string' ? form.id : ''
  if (!(await removeShareLink(deps.store, id, deps.now())))
    throw new HttpError(404, 'link_not_found', 'there is no such link, or it was already removed; see the list of share links')
  if (form.back === 'shared') return seeOther(sharedByMeDone('link-removed'))
  return seeOther(typeof form.from === 'string' && form.from !== '' ? shareOf(podPath(form.from), 'link-removed') : linksOnePage('removed'))
}
