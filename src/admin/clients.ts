// Static clients the owner registers (confidential, client_secret_basic), and removing any client.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { clientMetadataJson, deleteRegisteredClient, listRegisteredClients, parseClientMetadata, registerClient } from '../account/registered-clients.ts'
import { revokeConsent } from '../account/consents.ts'
import { log } from '../log.ts'

type AdminDeps = Pick<Deps, 'store' | 'now' | 'revocations'>

export async function createStaticClient(deps: AdminDeps, body: unknown): Promise<Record<string, unknown>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpError(400, 'invalid_client_metadata', 'send the client metadata as a JSON object (RFC 7591 names)')
  const metadata = parseClientMetadata(body as Record<string, unknown>, false)
  if (metadata.authMethod !== 'client_secret_basic')
    throw new HttpError(400, 'invalid_client_metadata', 'static clients are confidential: token_endpoint_auth_method must be client_secret_basic (or absent)')
  const { client, secret } = await registerClient(deps.store, metadata, 'static', deps.now())
  log.info('admin.client_registered', { clientId: client.clientId, registration: 'static' })
  return { ...clientMetadataJson(client), client_secret: secret, client_secret_expires_at: 0 }
}

export async function readClients(deps: AdminDeps) {
  return (await listRegisteredClients(deps.store, deps.now())).map(c => ({ ...clientMetadataJson(c), registration: c.registration }))
}

/** Deletes the registration, its consent and its sessions. */
export async function deleteClient(deps: AdminDeps, clientId: string): Promise<boolean> {
  const now = deps.now()
  if (!(await deleteRegisteredClient(deps.store, clientId, now))) return false
  await revokeConsent(deps.store, clientId, now)
  await deps.revocations.revokeClient(clientId, now)
  log.info('admin.client_deleted', { clientId })
  return true
}
