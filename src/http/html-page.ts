// The pod's own HTML pages: templates from static/, filled with escaped values, sent with strict headers.

import { createHash } from 'node:crypto'
import { HttpError } from './errors.ts'
import { readStatic } from './static-files.ts'
import { logRefusal } from './render-error.ts'
import { plainWords } from '../lib/plain-words.ts'
import { readablePathsIn } from '../lib/readable-path.ts'

/** HTML that is already escaped (built with `html`), inserted as is by `{{{name}}}`. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString() {
    return this.value
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, c => ENTITIES[c]!)

/** Tagged template: interpolated values are escaped unless they are SafeHtml (arrays are joined). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!
  })
  return new SafeHtml(out)
}

function render(v: unknown): string {
  if (v instanceof SafeHtml) return v.value
  if (Array.isArray(v)) return v.map(render).join('')
  if (v === undefined || v === null || v === false) return ''
  return escapeHtml(String(v))
}

const templates = new Map<string, Promise<string>>()

/** A file of static/ (a fixed, small set of names: the map stays bounded); works from source and binary. */
function loadTemplate(name: string): Promise<string> {
  let t = templates.get(name)
  if (!t) {
    t = readStatic(name)
    templates.set(name, t)
    t.catch(() => templates.delete(name))
  }
  return t
}

type Vars = Record<string, string | number | SafeHtml | undefined>

/** `{{name}}` escaped, `{{{name}}}` raw SafeHtml; a name the caller did not give is a bug, not a blank. */
export function fillTemplate(template: string, vars: Vars): string {
  return template.replace(/\{\{(\{?)\s*([\w-]+)\s*\}?\}\}/g, (_, raw: string, name: string) => {
    if (!(name in vars)) throw new Error(`template variable ${name} was not given`)
    const v = vars[name]
    if (raw) {
      if (!(v instanceof SafeHtml) && v !== undefined) throw new Error(`template variable ${name} must be SafeHtml`)
      return v?.value ?? ''
    }
    return v === undefined ? '' : render(v)
  })
}

export interface PageOptions {
  readonly status?: number
  readonly headers?: Record<string, string | string[]>
  /** The one script the page may run (an absolute URL on our origin), and fetch() to our origin. */
  readonly script?: string
}

let styleHash: Promise<string> | undefined
/** CSP hash of static/style.css: the inline <style> is allowed, nothing else is. */
const getStyleHash = () => (styleHash ??= loadTemplate('style.css').then(css => createHash('sha256').update(css).digest('base64')))

/** CSP3 §6.7.2.6: a source with a path matches that exact URL only, so no other file of the pod can run. */
const scriptPolicy = (script: string | undefined) => (script ? `script-src ${script}; connect-src 'self'; ` : '')

/**
 * A full page: static/`name` inside static/layout.html. No scripts, no external assets of our own;
 * images (a client's logo) may come from https or loopback, and `data:` (the layout's empty favicon,
 * which keeps browsers from asking for /favicon.ico). Images, sound and film may also come from the pod's
 * own origin ('self'): the previews of stored files, served by the owner's and the visitor's file routes
 * (as `content-security-policy: sandbox`, never as a page), which a pod on plain http (not loopback)
 * would otherwise not show; without media-src, default-src 'none' would stop every `<video>`.
 * Never cached, never framed.
 */
export async function renderPage(name: string, title: string, vars: Vars, opts: PageOptions = {}): Promise<Response> {
  const [layout, body, style, hash] = await Promise.all([loadTemplate('layout.html'), loadTemplate(name), loadTemplate('style.css'), getStyleHash()])
  const page = fillTemplate(layout, { title, style: new SafeHtml(style), main: new SafeHtml(fillTemplate(body, vars)) })
  const headers = new Headers({
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src 'sha256-${hash}'; img-src 'self' https: http://localhost:* http://127.0.0.1:* data:; media-src 'self'; ${scriptPolicy(opts.script)}frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // Referrer Policy §3.2 same-origin: no Referer leaves the pod (page URLs carry interaction ids),
    // yet form posts keep their Origin — under no-referrer, Fetch's "append a request Origin header"
    // sends `Origin: null`, which the CSRF check must refuse. static/layout.html's <meta> says the same.
    'referrer-policy': 'same-origin',
  })
  for (const [k, v] of Object.entries(opts.headers ?? {})) {
    if (Array.isArray(v)) for (const one of v) headers.append(k, one)
    else headers.set(k, v)
  }
  return new Response(page, { status: opts.status ?? 200, headers })
}

const HEADINGS: Record<number, string> = {
  400: 'This request cannot be completed',
  401: 'Sign-in failed',
  403: 'Not allowed',
  404: 'Not found',
  // A refusal of what the pod's state does not allow is no fault: "Something went wrong" is for the pod's own failures
  409: 'Not done',
  412: 'Not done',
  413: 'Too large',
  422: 'Not done',
  429: 'Too many attempts',
}

/** Descriptions are written as lowercase clauses for logs and JSON; on a page they read as sentences. */
export function asSentence(text: string): string {
  const t = text.trim()
  if (t === '') return t
  return t[0]!.toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? '' : '.')
}

/**
 * A URL that wraps only after a `/` of its path and before `#` and `?` (never inside the scheme or
 * host), so a WebID on a phone breaks where a reader expects; CSS breaks inside a segment only if it
 * alone is wider than the line.
 */
export function breakableUrl(url: string): SafeHtml {
  const origin = /^[a-z][\w+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? ''
  const rest = escapeHtml(url.slice(origin.length)).replace(/\/(?=[^/])|(?=[#?])/g, m => `${m}<wbr>`)
  return new SafeHtml(`<span class="url">${escapeHtml(origin)}${rest}</span>`)
}

/**
 * A refusal on a page (a form shown again, the error page): what it means in plain words first (`plain`
 * where the page knows better, else lib/plain-words.ts), the server's description after it, and the
 * code small beside them for whoever reports it.
 */
export function problemBox(err: HttpError, plain = plainWords(err.status, err.code)): SafeHtml {
  // Paths as people read them: the layers name them as stored (lib/readable-path.ts)
  const description = asSentence(readablePathsIn(err.description))
  return html`<div class="error" role="alert">${plain ? html`<p class="plain"><strong>${plain}</strong></p>` : ''}<p>${description}</p><p class="code">Error code: <code id="error">${err.code}</code></p></div>`
}

/** What a person can do after an error: a sentence and links onwards (there is no script for "back"). */
export interface NextSteps {
  /** Instead of the heading by status, where the page knows better. */
  readonly heading?: string
  /** None where the problem's own words already say what to do. */
  readonly hint?: string | SafeHtml
  readonly links: readonly { readonly href: string; readonly label: string }[]
}

export const HOME_LINK = { href: '/', label: "The pod's front page" } as const

const GENERIC_NEXT: NextSteps = { hint: 'Go back to the previous page and try again.', links: [HOME_LINK] }

/**
 * Every refusal shown as a page says what was wrong and what was expected (the description), carries
 * the error code, offers a way on, and is logged; the description never holds a secret.
 */
export function renderErrorPage(path: string, err: HttpError, next: NextSteps = GENERIC_NEXT, headers?: Record<string, string | string[]>): Promise<Response> {
  logRefusal({ path }, err)
  return errorPage(err, next, headers)
}

/** The error page alone, for a refusal already logged (renderError's format for a group of page routes). */
export function errorPage(err: HttpError, next: NextSteps = GENERIC_NEXT, headers?: Record<string, string | string[]>): Promise<Response> {
  const heading = next.heading ?? HEADINGS[err.status] ?? 'Something went wrong'
  return renderPage(
    'error.html',
    heading,
    {
      heading,
      problem: problemBox(err),
      hint: next.hint ? html`<p>${next.hint}</p>` : undefined,
      links: html`${next.links.map(l => html`<a class="button secondary" href="${l.href}">${l.label}</a> `)}`,
    },
    { status: err.status, headers: { ...err.headers, ...headers } },
  )
}

export function renderMessagePage(
  heading: string,
  text: string,
  link?: { href: string; label: string },
  headers?: Record<string, string | string[]>,
): Promise<Response> {
  return renderPage(
    'message.html',
    heading,
    { heading, text, link: link ? html`<p><a class="button" href="${link.href}">${link.label}</a></p>` : undefined },
    { headers: headers ?? {} },
  )
}

/** Page routes answer an HttpError with the error page (never a redirect: RFC 6749 §4.1.2.1). */
export const pageOrError = (path: string, run: () => Promise<Response>, next?: NextSteps): Promise<Response> =>
  run().catch((e: unknown) => (e instanceof HttpError ? renderErrorPage(path, e, next) : Promise.reject(e)))
