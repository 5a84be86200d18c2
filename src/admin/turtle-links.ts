// A Turtle document shown as written, with each IRI a link: the text is never re-serialized (its prefixes,
// comments and layout stay the owner's), only cut into tokens. `<iri>` and `prefix:local` (with a prefix the
// document declared) become links once resolved against the document's URL (and any @base); an IRI on this
// pod opens in the dashboard (its file view, or Files for a folder), any other http(s) IRI is linked as it
// is, with no Referer (rel="noreferrer noopener"). Everything else — strings, comments, keywords, IRIs of
// other schemes or that do not resolve — is plain, escaped text.

import { html, type SafeHtml } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'

/** Where the dashboard shows a pod path: Files for a folder, the view page for a document. */
const dashboardHref = (path: string) => `${path.endsWith('/') ? ADMIN_PATHS.files : ADMIN_PATHS.view}?path=${encodeURIComponent(path)}`

/** `ref` resolved against `base`: an http(s) URL, or undefined (no link). */
function resolve(ref: string, base: string): URL | undefined {
  try {
    const url = new URL(ref, base)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined
  } catch {
    return undefined
  }
}

/** The link for an absolute IRI: into the dashboard when it is on this pod (`podBase` has no trailing slash). */
export function linkFor(url: URL, podBase: string): { href: string; external: boolean } {
  const pod = new URL(podBase)
  if (url.origin === pod.origin && url.pathname.startsWith(`${pod.pathname.replace(/\/$/, '')}/`)) {
    return { href: dashboardHref(url.pathname.slice(pod.pathname.replace(/\/$/, '').length)), external: false }
  }
  return { href: url.href, external: true }
}

const link = (text: string, url: URL | undefined, podBase: string): SafeHtml | string => {
  if (!url) return text
  const { href, external } = linkFor(url, podBase)
  return external ? html`<a href="${href}" rel="noreferrer noopener">${text}</a>` : html`<a href="${href}">${text}</a>`
}

// Turtle 1.1 §6.5: IRIREF has no spaces nor <>"{}|^`\ (UCHAR aside); a prefixed name is PN_PREFIX? ':' PN_LOCAL?
const IRIREF = /^<([^\s<>"{}|^`\\]*)>/
const PNAME = /^((?:[\p{L}][\p{L}\p{N}_.-]*)?):((?:[\p{L}\p{N}_:%-]|\\[-_~.!$&'()*+,;=/?#@%]|\.(?=[\p{L}\p{N}_:%\\-]))*)/u
const STRING = /^("""[\s\S]*?(?<!\\)(?:\\\\)*"""|'''[\s\S]*?(?<!\\)(?:\\\\)*'''|"(?:[^"\\\n\r]|\\.)*"|'(?:[^'\\\n\r]|\\.)*')/
const DIRECTIVE = /^(@prefix|@base|PREFIX|BASE)(?![\w:-])/i

/**
 * `text` (Turtle, from `documentUrl`) as HTML with its IRIs linked; what is not understood stays text.
 * `podBase`: this pod's base URL, so its own IRIs open in the dashboard.
 */
export function turtleWithLinks(text: string, documentUrl: string, podBase: string): SafeHtml {
  const out: (SafeHtml | string)[] = []
  const prefixes = new Map<string, URL>()
  let base = documentUrl
  let plain = ''
  // What the last directive waits for: a prefix's name, then its IRI; or @base's IRI
  let pending: { kind: 'prefix'; name?: string } | { kind: 'base' } | undefined
  const flush = () => {
    if (plain) {
      out.push(plain)
      plain = ''
    }
  }
  let i = 0
  // A token may start here only after a delimiter: `ex:a` inside `_:ex:a` or a number is not a name
  const boundary = () => i === 0 || /[\s;,.()[\]{}]/.test(text[i - 1]!) || text[i - 1] === '>' || text[i - 1] === '"'
  while (i < text.length) {
    const rest = text.slice(i)
    const c = text[i]!
    if (c === '#') {
      // a comment, to the end of its line
      const end = rest.search(/[\r\n]/)
      plain += end === -1 ? rest : rest.slice(0, end)
      i += end === -1 ? rest.length : end
      continue
    }
    const str = c === '"' || c === "'" ? STRING.exec(rest) : null
    if (str) {
      plain += str[0]
      i += str[0].length
      continue
    }
    const iri = c === '<' ? IRIREF.exec(rest) : null
    if (iri) {
      const url = resolve(iri[1]!, base)
      if (pending?.kind === 'prefix' && pending.name !== undefined && url) prefixes.set(pending.name, url)
      if (pending?.kind === 'base' && url) base = url.href
      pending = undefined
      flush()
      out.push(link(iri[0], url, podBase))
      i += iri[0].length
      continue
    }
    const directive = boundary() ? DIRECTIVE.exec(rest) : null
    if (directive) {
      pending = directive[1]!.toLowerCase().endsWith('prefix') ? { kind: 'prefix' } : { kind: 'base' }
      plain += directive[0]
      i += directive[0].length
      continue
    }
    const pname = boundary() && /[\p{L}:]/u.test(c) ? PNAME.exec(rest) : null
    if (pname) {
      if (pending?.kind === 'prefix' && pending.name === undefined && pname[2] === '') {
        // the name being declared
        pending.name = pname[1]!
        plain += pname[0]
      } else {
        const ns = prefixes.get(pname[1]!)
        const local = pname[2]!.replace(/\\(.)/g, '$1')
        flush()
        out.push(link(pname[0], ns ? resolve(ns.href + local, ns.href) : undefined, podBase))
      }
      i += pname[0].length
      continue
    }
    // Anything else (a keyword such as `a`, a number, a blank node, punctuation): one word as text
    const word = /^[\p{L}\p{N}_-]+/u.exec(rest)
    plain += word ? word[0] : c
    i += word ? word[0].length : 1
  }
  flush()
  return html`${out}`
}
