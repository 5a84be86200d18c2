// Client authentication at the token endpoint: HTTP Basic for confidential clients (registered ones and the
// owner's client credentials), none for public ones.

import { badRequest, HttpError } from '../http/errors.ts'
import type { Store } from '../store/open-store.ts'
import { getRegisteredClient, matchingClientSecret, type RegisteredClient } from '../account/registered-clients.ts'
import { getClientCredential, isClientCredentialId, isCredentialSecretValid, type ClientCredential } from '../account/client-credentials.ts'
import { isClientIdDocumentUrl } from './clients.ts'

export interface TokenClient {
  readonly clientId: string
  /** Absent for Client ID Documents: their id is their URL, they have no secret. */
  readonly registered?: RegisteredClient
  /** A client credential of the owner's (scripts and bots): it may use only grant_type=client_credentials. */
  readonly credential?: ClientCredential
  /** The hash of the secret a confidential registered client authenticated with (marked used once tokens are issued). */
  readonly secretHash?: string
}

/** RFC 6749 §5.2: invalid_client is 401, with a Basic challenge when Basic was tried. */
const invalidClient = (description: string, basic: boolean) =>
  new HttpError(401, 'invalid_client', description, basic ? { headers: { 'www-authenticate': 'Basic realm="solopod", charset="UTF-8"' } } : {})

/** RFC 6749 §2.3.1: id and secret are form-urlencoded before the Basic encoding. */
function decodeBasic(value: string): { id: string; secret: string } | undefined {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'base64'))
  } catch {
    return undefined
  }
  const colon = text.indexOf(':')
  if (colon < 0) return undefined
  try {
    const form = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '))
    return { id: form(text.slice(0, colon)), secret: form(text.slice(colon + 1)) }
  } catch {
    return undefined
  }
}

export async function authenticateClient(store: Store, form: Record<string, string>, authorization: string | null, now: number): Promise<TokenClient> {
  // An empty Authorization header carries no credentials (RFC 9110 §11.6.2): the client is public
  if (authorization !== null && authorization.trim() !== '') {
    const m = /^Basic +([A-Za-z0-9+/]+=*)$/i.exec(authorization.trim())
    if (!m) throw badRequest('the token endpoint accepts only HTTP Basic client authentication in the Authorization header')
    const basic = decodeBasic(m[1]!)
    if (!basic) throw invalidClient('the Basic credentials are malformed; send base64(urlencode(client_id) ":" urlencode(client_secret))', true)
    if (form.client_id !== undefined && form.client_id !== basic.id)
      throw invalidClient('client_id in the body differs from the one in the Basic credentials', true)
    if (isClientCredentialId(basic.id)) {
      const credential = await getClientCredential(store, basic.id, now)
      if (!credential || !isCredentialSecretValid(credential, basic.secret)) throw invalidClient('unknown client or wrong client secret', true)
      return { clientId: credential.clientId, credential }
    }
    const client = await getRegisteredClient(store, basic.id, now)
    const secretHash = client && matchingClientSecret(client, basic.secret)
    if (!client || !secretHash) throw invalidClient('unknown client or wrong client secret', true)
    return { clientId: client.clientId, registered: client, secretHash }
  }
  if (form.client_secret !== undefined) throw invalidClient('client_secret_post is not supported; send the secret with HTTP Basic (client_secret_basic)', false)
  const clientId = form.client_id
  if (clientId === undefined) throw badRequest('client_id is required (or HTTP Basic authentication for a confidential client)')
  // A Client ID Document client is public: the code it redeems is bound to its URL and its PKCE verifier
  if (isClientIdDocumentUrl(clientId)) return { clientId }
  if (isClientCredentialId(clientId))
    throw invalidClient('a client credential is confidential: send its id and secret with HTTP Basic (client_secret_basic)', false)
  const client = await getRegisteredClient(store, clientId, now)
  if (!client) throw invalidClient(`client ${JSON.stringify(clientId.slice(0, 80))} is not registered here`, false)
  if (client.authMethod !== 'none') throw invalidClient('this client is confidential: authenticate with HTTP Basic (client_secret_basic)', false)
  return { clientId: client.clientId, registered: client }
}
