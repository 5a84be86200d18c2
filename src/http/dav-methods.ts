// The WebDAV methods (RFC 4918 §9) the dav role answers on pod resources, and the compliance classes the pod
// announces: the request handler routes by them and the resource server's OPTIONS names them.

export const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const

/** RFC 4918 §18: class 1 (properties, collections, COPY and MOVE) and class 2 (LOCK and UNLOCK). */
export const DAV_CLASSES = '1, 2'

const METHODS: ReadonlySet<string> = new Set(DAV_METHODS)
export const isDavMethod = (method: string) => METHODS.has(method.toUpperCase())

/** RFC 4918 §10: the headers only a WebDAV client sends. */
const DAV_HEADERS = ['if', 'depth', 'destination', 'overwrite', 'lock-token']
/** What a browser sends with every request a page or its scripts make (Fetch: Sec-Fetch-Mode; Origin on writes). */
const BROWSER_HEADERS = ['sec-fetch-mode', 'origin']

/**
 * A request from a WebDAV client (a mounted drive, litmus, rclone, cadaver): a WebDAV method, a request naming locks,
 * depth or a destination, or a PUT or DELETE no browser sent (a file manager's plain write, before it has signed in).
 * Such a client answers a Basic challenge, where a browser would pop up a password box for one.
 */
export const isWebDavRequest = ({ method, headers }: Request) =>
  isDavMethod(method) || DAV_HEADERS.some(h => headers.has(h)) || ((method === 'PUT' || method === 'DELETE') && !BROWSER_HEADERS.some(h => headers.has(h)))
