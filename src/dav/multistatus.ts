// WebDAV answers as XML (RFC 4918 §13, §14): one prefix `D:` for DAV:, never a default namespace, so a dead
// property in no namespace keeps none when it is written inside.

export const XML_TYPE = 'application/xml; charset=utf-8'
const PROLOG = '<?xml version="1.0" encoding="utf-8"?>\n'

export const escapeXml = (s: string) => s.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)

/** A property's name in Clark notation, `{namespace}local`: the key dead properties are kept by. */
export const clark = (ns: string | null, local: string) => `{${ns ?? ''}}${local}`
export function parseClark(name: string): { ns: string; local: string } {
  const close = name.indexOf('}')
  return { ns: name.slice(1, close), local: name.slice(close + 1) }
}

/** An empty element for a property name: `<D:x/>` for DAV:, else with its own namespace declaration. */
export function emptyElement(name: string): string {
  const { ns, local } = parseClark(name)
  if (ns === 'DAV:') return `<D:${local}/>`
  return ns === '' ? `<${local} xmlns=""/>` : `<X:${local} xmlns:X="${escapeXml(ns)}"/>`
}

export const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  423: 'Locked',
  424: 'Failed Dependency',
  507: 'Insufficient Storage',
}
export const statusLine = (status: number) => `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ''}`.trimEnd()

/** A `D:propstat` of properties (each its whole XML element) with one status. */
export const propstat = (props: readonly string[], status: number) =>
  `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>${statusLine(status)}</D:status></D:propstat>`

/** A `D:response` for one resource (`href` a stored path, already percent-encoded). */
export const responseFor = (href: string, inner: string) => `<D:response><D:href>${escapeXml(href)}</D:href>${inner}</D:response>`

export const MULTISTATUS_OPEN = `${PROLOG}<D:multistatus xmlns:D="DAV:">`
export const MULTISTATUS_CLOSE = '</D:multistatus>\n'

export function multistatus(responses: readonly string[]): Response {
  return new Response(MULTISTATUS_OPEN + responses.join('') + MULTISTATUS_CLOSE, { status: 207, headers: { 'content-type': XML_TYPE } })
}

/**
 * RFC 4918 §16: a precondition or postcondition that failed, as the body of an error status, with the pod's refusal
 * (`code: description`, as the resource server's text) in an element of our own, which §16 lets clients ignore.
 */
export const errorBody = (condition: string, refusal: string) =>
  `${PROLOG}<D:error xmlns:D="DAV:"><D:${condition}/><S:refusal xmlns:S="urn:solopod:refusal">${escapeXml(refusal)}</S:refusal></D:error>\n`

/** The body of a LOCK answer or a PROPFIND of lockdiscovery: `D:prop` with the given inner XML. */
export const propBody = (inner: string) => `${PROLOG}<D:prop xmlns:D="DAV:">${inner}</D:prop>\n`
