// CORS for every response: any origin, with credentials (Solid Protocol §8.1).

/** Every response header a Solid client reads; `*` is not honoured with credentials. */
export const EXPOSED_HEADERS = [
  'Accept-Patch',
  'Accept-Post',
  'Accept-Put',
  'Allow',
  'Content-Type',
  'Content-Length',
  'Content-Location',
  'DPoP-Nonce',
  'ETag',
  'Last-Modified',
  'Link',
  'Location',
  'Updates-Via',
  'Accept-Signature',
  'WAC-Allow',
  'WWW-Authenticate',
  'Vary',
  'X-Request-Id',
  // Resumable uploads (IETF draft-ietf-httpbis-resumable-upload §4.1)
  'Upload-Offset',
  'Upload-Complete',
  'Upload-Length',
  'Upload-Limit',
  'Upload-Draft-Interop-Version',
].join(', ')

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE'

export const isPreflight = (req: Request) => req.method === 'OPTIONS' && req.headers.has('origin') && req.headers.has('access-control-request-method')

/**
 * A pre-flight's answer allows exactly the request headers it asked for (Fetch §4.8 CORS-preflight
 * fetch: the browser checks each name of Access-Control-Request-Headers against the answer's
 * Access-Control-Allow-Headers; a name it did not ask for tells it nothing). Every requested name is
 * allowed, as the Community Solid Server does (the `cors` package reflects the request's list when
 * no fixed one is configured): a header the pod does not read is ignored on the actual request, and
 * refusing it here would only break an app that sends one. Nothing requested, no header at all.
 */
export function preflightResponse(req: Request): Response {
  const requested = (req.headers.get('access-control-request-headers') ?? '')
    .split(',')
    .map(h => h.trim())
    .filter(h => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(h))
  const headers = new Headers({ 'access-control-allow-methods': ALLOWED_METHODS, 'access-control-max-age': '600' })
  const allowed = eachOnce(requested)
  if (allowed.length > 0) headers.set('access-control-allow-headers', allowed.join(', '))
  return addCorsHeaders(req, new Response(null, { status: 204, headers }))
}

/** Header names in their first spelling, each once whatever its case (names are case-insensitive, RFC 9110 §5.1). */
function eachOnce(names: readonly string[]): string[] {
  const seen = new Set<string>()
  return names.filter(h => !seen.has(h.toLowerCase()) && seen.add(h.toLowerCase()))
}

/** Echoes the Origin (never `*` with credentials) and exposes the headers clients need. */
export function addCorsHeaders(req: Request, res: Response): Response {
  const origin = req.headers.get('origin')
  if (!origin) return res
  res.headers.set('access-control-allow-origin', origin)
  res.headers.set('access-control-allow-credentials', 'true')
  res.headers.set('access-control-expose-headers', EXPOSED_HEADERS)
  const vary = res.headers.get('vary')
  if (!vary?.split(',').some(v => v.trim().toLowerCase() === 'origin')) res.headers.set('vary', vary ? `${vary}, Origin` : 'Origin')
  return res
}
