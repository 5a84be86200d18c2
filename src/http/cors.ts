// CORS for every response: any origin, with credentials (Solid Protocol §8.1).

/** Every response header a Solid client reads; `*` is not honoured with credentials. */
export const EXPOSED_HEADERS = [
  'Accept-Patch', 'Accept-Post', 'Accept-Put', 'Allow', 'Content-Type', 'Content-Length', 'Content-Location',
  'DPoP-Nonce', 'ETag', 'Last-Modified', 'Link', 'Location', 'Updates-Via', 'Accept-Signature',
  'WAC-Allow', 'WWW-Authenticate', 'Vary', 'X-Request-Id',
  // Resumable uploads (IETF draft-ietf-httpbis-resumable-upload §4.1)
  'Upload-Offset', 'Upload-Complete', 'Upload-Length', 'Upload-Limit', 'Upload-Draft-Interop-Version',
].join(', ')

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE'

/** Always allowed request headers; `Accept` listed explicitly since long values are otherwise blocked. */
const BASE_ALLOWED_HEADERS = ['Accept', 'Authorization', 'DPoP', 'Content-Type', 'Link', 'Slug', 'If-Match',
  'If-None-Match', 'If-Modified-Since', 'Signature', 'Signature-Input', 'Origin', 'X-Request-Id']

export const isPreflight = (req: Request) =>
  req.method === 'OPTIONS' && req.headers.has('origin') && req.headers.has('access-control-request-method')

export function preflightResponse(req: Request): Response {
  const requested = (req.headers.get('access-control-request-headers') ?? '')
    .split(',').map(h => h.trim()).filter(h => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(h))
  const headers = new Headers({
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-allow-headers': allowedHeaders(requested).join(', '),
    'access-control-max-age': '600',
  })
  return addCorsHeaders(req, new Response(null, { status: 204, headers }))
}

/** The base list plus every requested header, each once whatever its case. */
function allowedHeaders(requested: readonly string[]): string[] {
  const seen = new Set(BASE_ALLOWED_HEADERS.map(h => h.toLowerCase()))
  return [...BASE_ALLOWED_HEADERS, ...requested.filter(h => !seen.has(h.toLowerCase()) && seen.add(h.toLowerCase()))]
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
