// RFC 9110 §9.3.2: the roles' GET routes answer HEAD as a GET whose body is dropped (app.ts). A route that counts
// what it sends (a share link's download limit) asks here whether the GET it answers is really a HEAD. A WeakSet
// of the requests made for it, not a header: a client cannot claim it.

const heads = new WeakSet<Request>()

/** The GET that answers a HEAD `request`. */
export function getForHead(request: Request): Request {
  const get = new Request(request.url, { method: 'GET', headers: request.headers })
  heads.add(get)
  return get
}

export const isHeadAsGet = (request: Request) => heads.has(request)

/**
 * The method the client sent: a signature (RFC 9421 `@method`) or a DPoP proof (`htm`) made for a HEAD names HEAD,
 * though a GET answers it.
 */
export const methodAsSent = (request: Request) => (heads.has(request) ? 'HEAD' : request.method)
