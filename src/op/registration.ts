// RFC 7591 dynamic client registration at /.oidc/reg (scope optional; a declared one must include webid).

import { jsonResponse } from '../http/json-response.ts'
import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { FailureLimiter } from '../http/rate-limit.ts'
import { clientMetadataJson, parseClientMetadata, registerClient } from '../account/registered-clients.ts'
import { log } from '../log.ts'
import { addressBlock } from '../lib/ip-address.ts'

/** Anyone may register; this bounds how fast one address (an IPv6 client's /64) fills the store. */
export const REGISTRATION_LIMIT = { max: 30, windowMs: 3600_000 }

export function makeRegistration(deps: Pick<Deps, 'store' | 'now'>) {
  const perAddress = new FailureLimiter(REGISTRATION_LIMIT)
  return async function registerDynamicClient(contentType: string | null, body: unknown, address: string | undefined): Promise<Response> {
    const now = deps.now()
    const wait = address ? perAddress.retryAfter(addressBlock(address), now) : 0
    if (wait > 0)
      throw new HttpError(429, 'too_many_requests', `too many registrations from this address; try again in ${wait} s`, {
        headers: { 'retry-after': String(wait) },
      })
    // RFC 7591 §3.1: the metadata is a JSON object
    if (!/^application\/json\b/i.test(contentType ?? '')) throw new HttpError(400, 'invalid_client_metadata', 'send the client metadata as application/json')
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new HttpError(400, 'invalid_client_metadata', 'the client metadata must be a JSON object')
    const metadata = parseClientMetadata(body as Record<string, unknown>, true)
    const { client, secret, again } = await registerClient(deps.store, metadata, 'dynamic', now)
    if (address) perAddress.recordFailure(addressBlock(address), now)
    log.info('op.client_registered', { clientId: client.clientId, registration: 'dynamic', ...(again ? { again } : {}) })
    // RFC 7591 §3.2.1: 201 with the metadata as registered; the secret is shown this once
    return jsonResponse({ ...clientMetadataJson(client), ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}) }, { status: 201 })
  }
}
