// A validated authorization request waiting for the owner's login and consent (record kind `interaction`).

import type { Store } from '../store/open-store.ts'
import { deleteRecord, getRecord, putRecord } from '../store/records.ts'
import { randomId } from '../auth/owner-session.ts'
import type { AuthorizationRequest } from './authorization-request.ts'
import type { OpClient } from './clients.ts'
import { INTERACTION_TTL_MS } from './model.ts'

const KIND = 'interaction'

/** What the consent page shows about the client. */
export interface ClientSummary {
  readonly clientId: string
  readonly kind: OpClient['kind']
  readonly clientName?: string
  readonly clientUri?: string
  readonly logoUri?: string
}

export interface Interaction {
  readonly id: string
  readonly request: AuthorizationRequest
  readonly client: ClientSummary
  readonly createdAt: number
  /** The login session whose password entry happened for this interaction (prompt=login, max_age). */
  readonly loggedInWith?: string
}

export const summarizeClient = (c: OpClient): ClientSummary => ({
  clientId: c.clientId, kind: c.kind,
  ...(c.clientName !== undefined ? { clientName: c.clientName } : {}),
  ...(c.clientUri !== undefined ? { clientUri: c.clientUri } : {}),
  ...(c.logoUri !== undefined ? { logoUri: c.logoUri } : {}),
})

/** In memory only: most requests of a signed-in owner need no page, and then no record. */
export const newInteraction = (request: AuthorizationRequest, client: OpClient, now: number): Interaction =>
  ({ id: randomId(), request, client: summarizeClient(client), createdAt: now })

/** Stored when a page (login, consent) has to continue it. */
export const saveInteraction = (store: Store, i: Interaction) => putRecord(store, KIND, i.id, i, i.createdAt + INTERACTION_TTL_MS)

export const getInteraction = (store: Store, id: unknown, now: number) =>
  typeof id === 'string' && /^[A-Za-z0-9_-]{22}$/.test(id) ? getRecord<Interaction>(store, KIND, id, now) : Promise.resolve(undefined)

/** Records that the owner just typed the password for this interaction; returns the updated one. */
export async function markLoggedIn(store: Store, i: Interaction, sessionId: string): Promise<Interaction> {
  const next = { ...i, loggedInWith: sessionId }
  await saveInteraction(store, next)
  return next
}

export const deleteInteraction = (store: Store, id: string) => deleteRecord(store, KIND, id)
