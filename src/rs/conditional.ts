// RFC 9110 §13 preconditions of a write, as the request sent them; the layer checks them (resources/preconditions.ts).

import type { Preconditions } from '../resources/preconditions.ts'

/** A write's If-Match / If-None-Match, for the operations layer. */
export const preconditionsOf = (headers: Headers): Preconditions => ({ ifMatch: headers.get('if-match'), ifNoneMatch: headers.get('if-none-match') })
