// The body of an OAuth token request, as both token endpoints (OP and UMA AS) read it.

import { badRequest } from './errors.ts'

/**
 * RFC 6749 §3.2: form-encoded; §3.1: no parameter twice. Empty values count as absent.
 * `form` is the parsed body, where a repeated name arrives as an array.
 */
export function singleValuedForm(contentType: string | null, form: Record<string, unknown>): Record<string, string> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(contentType ?? '')) throw badRequest('the token request must be application/x-www-form-urlencoded')
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(form)) {
    if (typeof value !== 'string') throw badRequest(`parameter ${name} must be sent once`)
    if (value !== '') out[name] = value
  }
  return out
}
