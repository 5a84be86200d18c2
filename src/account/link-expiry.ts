// How long share links last (issue 38: "a default and a maximum the owner sets; none only if chosen"). The owner
// sets both; they are kept in the store's system space, so the running server and a command on the stopped pod
// read the same record (and export and import carry it). The rule, in one place (`linkLifetime`, which only
// `addShareLink` calls, whatever face asked):
// - no expiry asked for → the owner's default;
// - a duration longer than the maximum → refused, 400 `link_expiry_too_long`, nothing made;
// - "never" only when the owner set no maximum ("no maximum" is the one setting that offers it), and the
//   default may be "never" only then too;
// - lowering the maximum changes no link already made: it bounds new links only (the Links page marks the
//   links that last longer than a new one could, so the owner can remove them).

import type { Store } from '../store/open-store.ts'
import { HttpError, badRequest } from '../http/errors.ts'
import { countOf } from '../lib/count-words.ts'

export const DAY_MS = 24 * 60 * 60 * 1000

export interface LinkExpirySettings {
  /** A new link's lifetime when none is asked for; null: never expires (only with no maximum). */
  readonly defaultMs: number | null
  /** The longest lifetime a link may be given; null: no maximum, and "never" may be chosen. */
  readonly maxMs: number | null
}

/** Until the owner sets them: a week by default (long enough to be used, short enough to be forgotten safely), at most a year. */
export const INITIAL_LINK_EXPIRY: LinkExpirySettings = Object.freeze({ defaultMs: 7 * DAY_MS, maxMs: 365 * DAY_MS })

const SYSTEM_KEY = 'link-expiry'

export async function getLinkExpirySettings(store: Store): Promise<LinkExpirySettings> {
  return ((await store.system.get(SYSTEM_KEY)) as LinkExpirySettings | undefined) ?? INITIAL_LINK_EXPIRY
}

/** Checks and keeps the owner's choice (synced: an acknowledged setting bounds the next link). */
export async function saveLinkExpirySettings(store: Store, settings: LinkExpirySettings): Promise<LinkExpirySettings> {
  const checked = checkLinkExpirySettings(settings)
  await store.system.put(SYSTEM_KEY, checked, { sync: true })
  return checked
}

/** A pair the rule admits: durations above no time; a default within the maximum; "never" as default only with no maximum. */
export function checkLinkExpirySettings(s: LinkExpirySettings): LinkExpirySettings {
  for (const ms of [s.defaultMs, s.maxMs])
    if (ms !== null && !(Number.isSafeInteger(ms) && ms > 0)) throw badRequest('a link expiry is a duration above no time')
  if (s.maxMs !== null && (s.defaultMs === null || s.defaultMs > s.maxMs)) {
    throw badRequest(
      `the default expiry (${durationWords(s.defaultMs)}) must not be longer than the maximum (${durationWords(s.maxMs)}): lower the default, or raise the maximum`,
    )
  }
  return { defaultMs: s.defaultMs, maxMs: s.maxMs }
}

/**
 * The lifetime a new link gets: `requested` undefined → the default; null → never; else a duration. Refused when it
 * exceeds the owner's maximum (or is "never" under one): 400 `link_expiry_too_long`, naming the maximum.
 */
export function linkLifetime(requested: number | null | undefined, s: LinkExpirySettings): number | null {
  if (requested === undefined) return s.defaultMs
  if (requested !== null && !(Number.isSafeInteger(requested) && requested > 0)) throw badRequest('a link expires after more than no time')
  if (s.maxMs !== null && (requested === null || requested > s.maxMs)) {
    throw new HttpError(
      400,
      'link_expiry_too_long',
      `a link expires after at most ${durationWords(s.maxMs)}, the maximum the owner set${requested === null ? ' (a link that never expires needs no maximum)' : ''}`,
    )
  }
  return requested
}

/** `solopod links settings` and the owner API: what to change, as typed (`30d`; `never` for the default, `none` for the maximum). */
export interface LinkSettingsChange {
  readonly defaultExpiry?: string
  readonly maxExpiry?: string
}
export interface ToldLinkSettings {
  readonly defaultExpiry: string
  readonly maxExpiry: string
}
const toldSettings = (s: LinkExpirySettings): ToldLinkSettings => ({
  defaultExpiry: durationText(s.defaultMs, 'never'),
  maxExpiry: durationText(s.maxMs, 'none'),
})

/**
 * The settings with a change applied: each value given replaces its own, the other stays; the pair is checked when
 * saved. `names`: the two values as the asker calls them, for a refusal (the command line's flags, or JSON fields).
 */
export async function changeLinkSettings(
  store: Store,
  change: LinkSettingsChange,
  names: Record<keyof LinkSettingsChange, string> = { defaultExpiry: '--default-expiry', maxExpiry: '--max-expiry' },
): Promise<ToldLinkSettings> {
  const current = await getLinkExpirySettings(store)
  if (change.defaultExpiry === undefined && change.maxExpiry === undefined) return toldSettings(current)
  const defaultMs = parseLinkDuration(change.defaultExpiry, names.defaultExpiry, 'never')
  const maxMs = parseLinkDuration(change.maxExpiry, names.maxExpiry, 'none')
  return toldSettings(
    await saveLinkExpirySettings(store, {
      defaultMs: defaultMs === undefined ? current.defaultMs : defaultMs,
      maxMs: maxMs === undefined ? current.maxMs : maxMs,
    }),
  )
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS }

/**
 * `30m`, `12h`, `7d`, `2w` → milliseconds; `never` (or `none`, with `noneWord`) → null; undefined stays undefined.
 * `refuse` makes the refusal of anything else (a form's is `invalid_field`).
 */
export function parseLinkDuration(
  text: string | undefined,
  what = '--expires',
  noneWord = 'never',
  refuse: (description: string) => HttpError = badRequest,
): number | null | undefined {
  if (text === undefined) return undefined
  if (text.trim() === noneWord) return null
  const m = /^(\d{1,6})([smhdw])$/.exec(text.trim())
  if (!m) throw refuse(`${what} takes a duration such as 30m, 12h, 7d or 2w, or ${noneWord}; got ${JSON.stringify(text.slice(0, 40))}`)
  return Number(m[1]) * UNITS[m[2]!]!
}

/** A duration as the CLI takes it back: the largest unit that divides it (`7d`, `2w` stays `14d`: days read best), or `none`/`never`. */
export function durationText(ms: number | null, noneWord: string): string {
  if (ms === null) return noneWord
  for (const [unit, size] of [
    ['d', DAY_MS],
    ['h', 3_600_000],
    ['m', 60_000],
  ] as const)
    if (ms % size === 0) return `${ms / size}${unit}`
  return `${Math.ceil(ms / 1000)}s`
}

/** "7 days", "12 hours", "no time limit": for sentences and the forms' options. */
export function durationWords(ms: number | null): string {
  if (ms === null) return 'no time limit'
  if (ms % DAY_MS === 0) return countOf(ms / DAY_MS, 'day')
  if (ms % 3_600_000 === 0) return countOf(ms / 3_600_000, 'hour')
  if (ms % 60_000 === 0) return countOf(ms / 60_000, 'minute')
  return countOf(Math.ceil(ms / 1000), 'second')
}

/** Durations offered in the forms besides the owner's own default and maximum. */
const COMMON_MS = [DAY_MS, 7 * DAY_MS, 30 * DAY_MS, 90 * DAY_MS, 365 * DAY_MS]

/** The expiry choices a new-link form offers: the common ones and the owner's default, none beyond the maximum, then "never" only with no maximum. */
export function linkExpiryChoices(s: LinkExpirySettings): (number | null)[] {
  const finite = [...new Set([...COMMON_MS, ...(s.defaultMs !== null ? [s.defaultMs] : []), ...(s.maxMs !== null ? [s.maxMs] : [])])]
    .filter(ms => s.maxMs === null || ms <= s.maxMs)
    .sort((a, b) => a - b)
  return s.maxMs === null ? [...finite, null] : finite
}

/** The maxima the settings form offers: the common ones, the current one, and "no maximum". */
export const maxExpiryChoices = (s: LinkExpirySettings): (number | null)[] => [
  ...[...new Set([...COMMON_MS, ...(s.maxMs !== null ? [s.maxMs] : [])])].sort((a, b) => a - b),
  null,
]
/** The defaults the settings form offers: the common ones, the current one, and "never" (the pod refuses it under a maximum). */
export const defaultExpiryChoices = (s: LinkExpirySettings): (number | null)[] => [
  ...[...new Set([...COMMON_MS, ...(s.defaultMs !== null ? [s.defaultMs] : [])])].sort((a, b) => a - b),
  null,
]
