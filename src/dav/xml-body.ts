// A WebDAV request body (RFC 4918 §8.2): XML read whole up to a bound, parsed by a namespace-aware parser
// (@xmldom/xmldom), refused with 400 when it is not well-formed or not namespace-well-formed.

import type { Document, Element } from '@xmldom/xmldom'
import { HttpError } from '../http/errors.ts'
import { readAtMost } from '../auth/request-body.ts'

export const DAV_NS = 'DAV:'

/**
 * @xmldom/xmldom loads with the first WebDAV body, not on every start of the pod (docs/performance.md); by
 * require, because the serializing that follows a parse (lock owners, dead properties) is synchronous.
 */
let xmldom: typeof import('@xmldom/xmldom') | undefined
export const xmlDom = () => (xmldom ??= require('@xmldom/xmldom') as typeof import('@xmldom/xmldom'))

/** Property requests, lock requests and property updates are small; Finder's largest are a few KiB. */
export const MAX_XML_BYTES = 1 << 20

const invalidXml = (why: string) => new HttpError(400, 'invalid_xml', `the body is not XML this method takes: ${why}`)
const tooLarge = () => new HttpError(413, 'payload_too_large', `a WebDAV request body may be at most ${MAX_XML_BYTES} bytes`)

/** The body's document, or undefined for an empty body (which PROPFIND reads as allprop, LOCK as a refresh). */
export async function readXmlBody(request: Request): Promise<Document | undefined> {
  const declared = Number(request.headers.get('content-length') ?? '0')
  if (declared > MAX_XML_BYTES) throw tooLarge()
  if (request.body === null) return undefined
  const bytes = await readAtMost(request.body, MAX_XML_BYTES, tooLarge)
  if (bytes.byteLength === 0) return undefined
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw invalidXml('it is not UTF-8')
  }
  if (text.trim() === '') return undefined
  // RFC 4918 §17: an XML DTD could make the pod fetch or expand entities; no WebDAV body needs one
  if (/<!DOCTYPE/i.test(text)) throw invalidXml('a document type declaration is not accepted')
  let doc: Document
  try {
    doc = new (xmlDom().DOMParser)({
      onError: (level, message) => {
        if (level !== 'warning') throw invalidXml(message)
      },
    }).parseFromString(text, 'application/xml')
  } catch (err) {
    if (err instanceof HttpError) throw err
    throw invalidXml(err instanceof Error ? err.message.split('\n', 1)[0]!.slice(0, 200) : 'it does not parse')
  }
  const root = doc.documentElement
  if (!root) throw invalidXml('it has no root element')
  checkNamespaces(root)
  return doc
}

/** Namespaces in XML 1.0 §3: a prefix may not be bound to the empty name (`xmlns:a=""`), which the parser lets pass. */
function checkNamespaces(element: Element): void {
  for (let i = 0; i < element.attributes.length; i++) {
    const a = element.attributes.item(i)!
    if (a.prefix === 'xmlns' && a.value === '') throw invalidXml(`the prefix ${a.localName} is bound to an empty namespace name`)
  }
  for (const child of childElements(element)) checkNamespaces(child)
}

export function childElements(element: Element): Element[] {
  const out: Element[] = []
  for (let n = element.firstChild; n !== null; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element)
  return out
}

export const isDav = (element: Element, name: string) => element.namespaceURI === DAV_NS && element.localName === name

/** The document's root, which must be DAV:`name`. */
export function rootOf(doc: Document, name: string): Element {
  const root = doc.documentElement!
  if (!isDav(root, name)) throw invalidXml(`the root element must be DAV:${name}`)
  return root
}

export const davChild = (element: Element, name: string) => childElements(element).find(e => isDav(e, name))

export const badXml = invalidXml
