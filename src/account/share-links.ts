// Share links (issue 38): a capability URL for someone without a WebID, naming one file or one folder of the
// pod. The token is shown once, when the link is made; the store keeps only its SHA-256, so a copy of the
// database (a backup) opens nothing. Each link is a record keyed by that hash; its id (public, what the owner
// lists and removes it by) is inside it.

import type { Store } from '../store/open-store.ts'
import { getRecord, readRecords, putRecord, updateRecord, writeRecords, NEVER } from '../store/records.ts'
import { badRequest, HttpError } from '../http/errors.ts'
import { randomBase64url } from '../lib/client-secret.ts'
import { sha256Base64url } from '../lib/text.ts'
import { DAY_MS, getLinkExpirySettings, linkLifetime } from './link-expiry.ts'

const KIND = 'share-link'
/** Recognisable on the command line and in logs; never a token (those have no prefix and are never logged). */
export const SHARE_LINK_PREFIX = 'link-'
export const MAX_LINK_NAME = 100
/** 256 bits: far beyond guessing, whatever the rate of tries. */
const TOKEN_BYTES = 32
/** A token as it appears in a URL: exactly what `randomBase64url(TOKEN_BYTES)` makes. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

export { DAY_MS } from './link-expiry.ts'
/**
 * An expired link's record is kept this long after it expires, so its holder is told it expired (410) rather
 * than that it never was (404); then the store's sweep removes it.
 */
const EXPIRED_KEPT_MS = 30 * DAY_MS

/** What a link allows: `read` views and downloads; `upload` adds files to a folder and shows nothing (a file drop); `read-upload` both. */
export type LinkAllows = 'read' | 'upload' | 'read-upload'
export const LINK_ALLOWS: readonly LinkAllows[] = ['read', 'upload', 'read-upload']

/** What the one decider needs of a live link (auth/principal.ts `link`): where it reaches, and what it allows there. */
export interface LinkScope {
  readonly id: string
  /** A stored path: a file, or a folder (ending in `/`) with everything under it. */
  readonly path: string
  readonly allows: LinkAllows
}

export interface ShareLink extends LinkScope {
  readonly name: string
  readonly createdAt: number
  /** Undefined: the owner chose a link that never expires. */
  readonly expiresAt?: number
  /** Uses served through it: pages viewed, whole files downloaded, uploads (share-link-uses.ts says which count). */
  readonly uses: number
  /** The argon2id hash of the link's password (never the password); undefined: the token alone opens it. */
  readonly passwordHash?: string
  /** Full downloads allowed (links/plugin.ts says which GETs count); undefined: no limit. */
  readonly maxDownloads?: number
  /** Full downloads so far, counted only when the link has a limit. */
  readonly downloads?: number
}

export const canRead = (allows: LinkAllows) => allows !== 'upload'
export const canUpload = (allows: LinkAllows) => allows !== 'read'

const hashOf = (token: string) => sha256Base64url(token)

export function checkLinkName(name: unknown): string {
  const trimmed = typeof name === 'string' ? name.trim() : ''
  if (trimmed.length > MAX_LINK_NAME || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw badRequest(`a link's name is at most ${MAX_LINK_NAME} characters, without line breaks (who it is for, e.g. "for the plumber")`)
  }
  return trimmed
}

export interface NewLink {
  /** A stored path, checked to exist by the caller. */
  readonly path: string
  readonly allows: LinkAllows
  readonly name?: string
  /** From now; undefined: the owner's default; null: never expires (only when the owner set no maximum: link-expiry.ts). */
  readonly lifetimeMs?: number | null
  /** Hashed here (argon2id); the password itself is never kept or logged. */
  readonly password?: string
  readonly maxDownloads?: number
}

/** Makes a link: its record, and the token that opens it (shown now, never again). */
export async function addShareLink(store: Store, link: NewLink, now: number): Promise<{ link: ShareLink; token: string }> {
  if (canUpload(link.allows) && !link.path.endsWith('/')) throw badRequest('an upload link names a folder: files are added into it')
  // The one place the owner's default and maximum apply, whichever face asked (dashboard, command line)
  const lifetime = linkLifetime(link.lifetimeMs, await getLinkExpirySettings(store))
  const record: ShareLink = {
    id: SHARE_LINK_PREFIX + randomBase64url(9),
    path: link.path,
    allows: link.allows,
    name: checkLinkName(link.name ?? ''),
    createdAt: now,
    uses: 0,
    ...(lifetime !== null ? { expiresAt: now + lifetime } : {}),
    ...(link.password !== undefined ? { passwordHash: await Bun.password.hash(checkLinkPassword(link.password), { algorithm: 'argon2id' }) } : {}),
    ...(link.maxDownloads !== undefined ? { maxDownloads: checkMaxDownloads(link.maxDownloads), downloads: 0 } : {}),
  }
  const token = randomBase64url(TOKEN_BYTES)
  await putRecord<ShareLink>(store, KIND, hashOf(token), record, keptUntil(record))
  return { link: record, token }
}

export const MAX_LINK_PASSWORD = 1024
const checkLinkPassword = (password: string) => {
  if (password === '' || password.length > MAX_LINK_PASSWORD) throw badRequest(`a link's password is 1 to ${MAX_LINK_PASSWORD} characters`)
  return password
}
export const MAX_DOWNLOADS = 1_000_000
const checkMaxDownloads = (n: number) => {
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_DOWNLOADS) throw badRequest(`a link's download limit is a whole number from 1 to ${MAX_DOWNLOADS}`)
  return n
}

const keptUntil = (l: ShareLink) => (l.expiresAt === undefined ? NEVER : l.expiresAt + EXPIRED_KEPT_MS)

/**
 * The live link a token opens; refused 404 `link_not_found` (no such token, or removed) or 410 `link_expired`
 * (or `link_used_up`). A read only: uses are counted apart (share-link-uses.ts), once a use was served. The token
 * is never in the refusal: refusals are logged.
 */
export async function openShareLink(store: Store, token: string, now: number): Promise<ShareLink> {
  if (!TOKEN_PATTERN.test(token)) throw linkNotFound()
  const found = await getRecord<ShareLink>(store, KIND, hashOf(token), now)
  if (found === undefined) throw linkNotFound()
  if (isExpired(found, now))
    throw new HttpError(410, 'link_expired', `this link expired on ${new Date(found.expiresAt!).toISOString()}; ask whoever sent it for a new one`)
  if (isUsedUp(found)) throw linkUsedUp(found)
  return found
}

/** The key a link's record and its counted uses go by: the token's hash, never the token. */
export const shareLinkKey = (token: string) => hashOf(token)

/**
 * Adds uses counted in memory to the links' records, in one write (not synced: a power cut loses a few seconds of
 * counts, never a link). Each record is read and written in the records' queue, so a removal or a counted download
 * meanwhile is never overwritten; a link removed meanwhile takes no count.
 */
export function addShareLinkUses(store: Store, uses: ReadonlyMap<string, number>, now: number): Promise<void> {
  return store.caches.recordQueue(async () => {
    const puts: { key: string; value: ShareLink; expiresAt: number }[] = []
    for (const [key, n] of uses) {
      const l = await getRecord<ShareLink>(store, KIND, key, now)
      if (l !== undefined) puts.push({ key, value: { ...l, uses: l.uses + n }, expiresAt: keptUntil(l) })
    }
    await writeRecords(store, KIND, puts, [], { sync: false })
  })
}

/**
 * Whether a download begun through the link may go on (a folder's zip, asked between its members): the link is
 * still there and not expired, else its refusal. Its own download was counted when it began, so a limit it used
 * up ends nothing.
 */
export async function requireShareLinkLive(store: Store, token: string, now: number): Promise<void> {
  const found = await getRecord<ShareLink>(store, KIND, hashOf(token), now)
  if (found === undefined) throw linkNotFound()
  if (isExpired(found, now)) throw new HttpError(410, 'link_expired', 'this link expired while the download ran; ask whoever sent it for a new one')
}

const isUsedUp = (l: ShareLink) => l.maxDownloads !== undefined && (l.downloads ?? 0) >= l.maxDownloads
const linkUsedUp = (l: ShareLink) =>
  new HttpError(410, 'link_used_up', `this link was downloaded the ${l.maxDownloads} time(s) it allows; ask whoever sent it for a new one`)

/**
 * Counts one full download through a link with a limit, refusing 410 `link_used_up` when the limit was reached
 * meanwhile (two downloads racing for the last one: one wins). Without a limit, nothing is counted.
 */
export async function countShareLinkDownload(store: Store, token: string, now: number): Promise<void> {
  const counted = await updateRecord<ShareLink, ShareLink | undefined>(store, KIND, hashOf(token), now, l =>
    l === undefined || l.maxDownloads === undefined || isUsedUp(l) ? { result: l } : { next: { ...l, downloads: (l.downloads ?? 0) + 1 }, result: undefined },
  )
  if (counted !== undefined && isUsedUp(counted)) throw linkUsedUp(counted)
}

const isExpired = (l: ShareLink, now: number) => l.expiresAt !== undefined && l.expiresAt <= now
/** Whether the link opens anything now: not expired, not used up. */
export const isLinkLive = (l: ShareLink, now: number) => !isExpired(l, now) && !isUsedUp(l)
const linkNotFound = () => new HttpError(404, 'link_not_found', 'there is no such link, or it was removed; ask whoever sent it for a new one')

/** Every link, oldest first; `pending` adds the uses counted in memory and not yet written (by `shareLinkKey`). */
export async function listShareLinks(store: Store, now: number, pending?: (key: string) => number): Promise<ShareLink[]> {
  return (await readRecords<ShareLink>(store, KIND, now))
    .map(r => (pending ? { ...r.value, uses: r.value.uses + pending(r.key) } : r.value))
    .sort((a, b) => a.createdAt - b.createdAt)
}

/** Removes a link by its id: every use ends at once (each request opens the link again). False when there is none. */
export async function removeShareLink(store: Store, id: string, now: number): Promise<boolean> {
  if (!id.startsWith(SHARE_LINK_PREFIX)) return false
  const key = (await readRecords<ShareLink>(store, KIND, now)).find(r => r.value.id === id)?.key
  if (key === undefined) return false
  return updateRecord<ShareLink, boolean>(store, KIND, key, now, l => (l === undefined ? { result: false } : { next: null, result: true }))
}
