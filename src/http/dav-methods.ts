// The WebDAV methods (RFC 4918 §9) the dav role answers on pod resources, and the compliance classes the pod
// announces: the request handler routes by them and the resource server's OPTIONS names them.

export const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const

/** RFC 4918 §18: class 1 (properties, collections, COPY and MOVE) and class 2 (LOCK and UNLOCK). */
export const DAV_CLASSES = '1, 2'

const METHODS: ReadonlySet<string> = new Set(DAV_METHODS)
export const isDavMethod = (method: string) => METHODS.has(method.toUpperCase())
