// The one share form: choose who (a person by WebID, everyone, anyone signed in; a group or a key under
// "More choices"), choose what they may do in plain words, press Share — written at once. Used wherever the
// dashboard offers sharing. A person's WebID is read first (webid-check.ts); a WebID without #fragment
// brings the "Did you mean …?" question, whose buttons post this form again with the answer.

import { HttpError } from '../http/errors.ts'
import type { CodeWithStatus } from '../http/refusals.ts'
import { breakableUrl, html, type SafeHtml } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { AUTHENTICATED, FOAF_AGENT, KIND_LABEL, MODES, MODE_WORDS, clientFieldProblem, isIri, onlyThroughApp, type Entry, type Kind } from './acl-entries.ts'
import { csrfField } from './owner-page.ts'
import type { WebIdCheck } from './webid-check.ts'

export const ADDABLE = ['agent', 'public', 'authenticated', 'group', 'key'] as const

/** What the form posts besides the entry: the item and the ACL version it was shown with. */
export interface ShareFormTarget {
  readonly path: string
  readonly version: string
  readonly hasOwn: boolean
  readonly extra?: SafeHtml | string
}

/** The share form's own fields: what a person typed, carried back to the form when the pod refused it or asked about it. */
const TYPED_FIELDS = ['kind', 'value', 'scope', 'origin', 'client', ...MODES] as const

/** The form's fields as a query (`&kind=agent&value=…&read=yes`), empty for a form that has none of them. */
export function typedQuery(form: Record<string, unknown>): string {
  const typed = TYPED_FIELDS.flatMap(name => (typeof form[name] === 'string' && form[name] !== '' ? [[name, form[name] as string]] : []))
  return typed.length === 0 ? '' : `&${new URLSearchParams(typed).toString()}`
}

/**
 * The share form. `typed`: what was typed before (the share page's query, from `typedQuery`), shown again so that
 * "Change it" or "Back to sharing" after a refusal (a WebID that cannot be read) does not make a person type it all anew.
 */
export function shareForm(t: ShareFormTarget, csrf: string, typed: Record<string, unknown> = {}): SafeHtml {
  const container = t.path.endsWith('/')
  const text = (name: (typeof TYPED_FIELDS)[number]) => (typeof typed[name] === 'string' ? (typed[name] as string) : '')
  const retyped = text('kind') !== ''
  const picked = (name: 'kind' | 'scope', value: string) => (text(name) === value ? html` selected` : '')
  const ticked = (mode: string) => ((retyped ? typed[mode] === 'yes' : mode === 'read') ? html` checked` : '')
  const scopes = container
    ? ([
        ['both', 'This folder and everything inside'],
        ['this', 'This folder only'],
        ['inside', 'Only things inside'],
      ] as const)
    : ([['this', 'This item only']] as const)
  const moreChosen = text('origin') !== '' || text('client') !== '' || (container && text('scope') !== '' && text('scope') !== 'both')
  return html`<section class="panel" aria-labelledby="add-h"><h2 id="add-h">Share</h2>
${t.hasOwn ? '' : html`<p class="muted">This item has no settings of its own yet: sharing gives it its own, starting from the inherited access shown below.</p>`}
<form method="post" action="${ADMIN_PATHS.shareAdd}" class="row-form share-form" data-enhance="share-form">${csrfField(csrf)}<input type="hidden" name="path" value="${t.path}"><input type="hidden" name="version" value="${t.version}">
<div><label for="share-kind">Who</label><select id="share-kind" name="kind">${ADDABLE.map(k => html`<option value="${k}"${picked('kind', k)}>${KIND_LABEL[k]}</option>`)}</select></div>
<div><label for="share-value">Their WebID (or the group or key URL)</label><input type="url" id="share-value" name="value" value="${text('value')}" placeholder="https://alice.example/profile/card#me" autocomplete="off" spellcheck="false" aria-describedby="share-value-hint">
<p class="hint" id="share-value-hint">For a person: the address of their profile, usually ending in #me. Not needed for everyone or anyone signed in.</p></div>
<fieldset><legend>They may</legend>${MODES.map(m => html`<label class="check"><input type="checkbox" name="${m}" value="yes"${ticked(m)}> ${MODE_WORDS[m]}</label>`)}</fieldset>
<details${moreChosen ? html` open` : ''}><summary>More choices</summary>
<div><label for="share-scope">Applies to</label><select id="share-scope" name="scope">${scopes.map(([value, label]) => html`<option value="${value}"${picked('scope', value)}>${label}</option>`)}</select></div>
<div><label for="share-origin">Only through this app origin (optional)</label><input type="url" id="share-origin" name="origin" value="${text('origin')}" placeholder="https://app.example" autocomplete="off"></div>
<div><label for="share-client">Only through this app: its client ID (optional, for a person)</label><input type="url" id="share-client" name="client" value="${text('client')}" placeholder="https://app.example/id" autocomplete="off"></div>
</details>
${t.extra ?? ''}
<div><button type="submit">Share</button></div></form></section>`
}

const bad = (code: CodeWithStatus<400>, description: string) => new HttpError(400, code, description)

/** The entry the share form describes; every field checked, the refusal naming it. */
export function entryFrom(form: Record<string, unknown>, container: boolean): Entry {
  const kind = form.kind as Kind
  if (!(ADDABLE as readonly string[]).includes(kind)) throw bad('invalid_field', `Who: expected one of ${ADDABLE.join(', ')}`)
  const needsIri = kind === 'agent' || kind === 'group' || kind === 'key'
  const raw = typeof form.value === 'string' ? form.value.trim() : ''
  if (needsIri && !isIri(raw)) throw bad('invalid_field', `${KIND_LABEL[kind]}: enter a full URL (https://…) with no spaces`)
  const modes = MODES.filter(m => form[m] === 'yes')
  if (modes.length === 0) throw bad('invalid_field', `They may: choose at least one of ${MODES.map(m => MODE_WORDS[m]).join(', ')}`)
  const scope = form.scope ?? (container ? 'both' : 'this')
  if (!(container ? ['both', 'this', 'inside'] : ['this']).includes(scope as string))
    throw bad('invalid_field', `Applies to: expected ${container ? 'both, this or inside' : 'this'}`)
  const origin = typeof form.origin === 'string' ? form.origin.trim() : ''
  if (origin && !(isIri(origin) && /^https?:/.test(origin))) throw bad('invalid_field', 'App origin: enter an origin like https://app.example')
  const client = typeof form.client === 'string' ? form.client.trim() : ''
  const clientProblem = clientFieldProblem(client, kind)
  if (clientProblem) throw bad('invalid_field', clientProblem)
  return {
    kind,
    value: needsIri ? raw : kind === 'public' ? FOAF_AGENT : AUTHENTICATED,
    modes: [...modes],
    thisItem: scope !== 'inside',
    inside: scope !== 'this' && container,
    origins: origin ? [new URL(origin).origin] : [],
    conditions: client ? [onlyThroughApp(client)] : [],
  }
}

/** The form's fields again, as hidden inputs: a question's answer posts the same share with one field changed. */
function repost(form: Record<string, unknown>, csrf: string, change: Record<string, string>): SafeHtml {
  const fields = { ...form, ...change }
  return html`${csrfField(csrf)}${Object.entries(fields)
    .filter(([k, v]) => k !== 'csrf' && typeof v === 'string')
    .map(([k, v]) => html`<input type="hidden" name="${k}" value="${v as string}">`)}`
}

/** "Did you mean …#me?": the body of the page a WebID without #fragment brings; nothing is written before an answer. */
export function webIdQuestion(check: Extract<WebIdCheck, { ok: false }>, form: Record<string, unknown>, csrf: string, back: string): SafeHtml {
  return html`<section class="panel" id="webid-question" aria-labelledby="question-h"><h2 id="question-h">${check.suggestion ? html`Did you mean <code>${breakableUrl(check.suggestion)}</code>?` : 'Share with this address as typed?'}</h2>
<p>You typed <code>${breakableUrl(check.webid)}</code>. That is the address of a profile document; a person's WebID usually ends with a #fragment, such as #me${check.suggestion ? ', and this document names the one above as the person it is about' : ''}. Nothing is shared yet.</p>
<div class="actions">${check.suggestion ? html`<form method="post" action="${ADMIN_PATHS.shareAdd}">${repost(form, csrf, { value: check.suggestion })}<button type="submit">Share with ${check.suggestion}</button></form>` : ''}
${check.describes ? html`<form method="post" action="${ADMIN_PATHS.shareAdd}">${repost(form, csrf, { confirmWebId: check.webid })}<button type="submit" class="${check.suggestion ? 'secondary' : ''}">Share with ${check.webid} as typed</button></form>` : ''}
<a class="button secondary" href="${back}">Change it</a></div></section>`
}
