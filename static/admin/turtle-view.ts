// Turtle shown as text with every IRI a link: pod IRIs open in the dashboard, others in a new tab.

import { h } from './dom.ts'

// String literals first, so nothing inside one is read as an IRI or a prefixed name.
const TOKEN = /"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|<([^<>"{}|^`\\\s]*)>|(?<![\w:])([A-Za-z][\w-]*)?:([A-Za-z_][\w-]*)/g

/** `documentUrl` resolves relative IRIs until an `@base` line says otherwise. */
export function turtleView(text: string, podBase: string, documentUrl = podBase + '/'): HTMLPreElement {
  const prefixes = new Map<string, string>()
  let base = documentUrl
  for (const m of text.matchAll(/@base\s*<([^>]*)>|@prefix\s+([\w-]*):\s*<([^>]*)>/gi)) {
    if (m[1] !== undefined) base = resolve(m[1], base) ?? base
    else prefixes.set(m[2] ?? '', resolve(m[3]!, base) ?? m[3]!)
  }
  const pre = h('pre', { class: 'rdf' })
  let last = 0
  for (const m of text.matchAll(TOKEN)) {
    const iri = m[1] !== undefined ? resolve(m[1], base) : m[3] !== undefined && prefixes.has(m[2] ?? '') ? prefixes.get(m[2] ?? '')! + m[3] : undefined
    if (iri === undefined) continue
    pre.append(text.slice(last, m.index))
    pre.append(link(m[0], iri, podBase))
    last = m.index + m[0].length
  }
  pre.append(text.slice(last))
  return pre
}

function resolve(iri: string, base: string): string | undefined {
  try { return new URL(iri, base).href } catch { return undefined }
}

function link(label: string, iri: string, podBase: string): HTMLAnchorElement {
  if (iri.startsWith(podBase + '/')) {
    const path = iri.slice(podBase.length).replace(/#.*$/, '')
    return h('a', { href: `#/files${path}`, title: iri }, label)
  }
  if (!/^https?:/.test(iri)) return h('a', { title: iri }, label)
  return h('a', { href: iri, title: iri, target: '_blank', rel: 'noopener noreferrer' }, label)
}
