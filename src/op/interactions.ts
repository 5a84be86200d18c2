// A validated authorization request waiting for the owner's login and consent (record kind `interaction`).

import { HttpError } from '../http/errors.ts'
import { renderErrorPage, renderMessagePage } from '../http/html-page.ts'
import type { Store } from '../store/open-store.ts'
import { APP_FLOW_NEXT } from './next-steps.ts'
import { deleteRecord, getRecord, putRecord } from '../store/records.ts'
import { randomId } from '../account/owner-session.ts'
import type { AuthorizationRequest } from './authorization-request.ts'
import type { OpClient } from './clients.ts'
import { INTERACTION_TTL_MS } from './model.ts'

const KIND = 'interaction'
/** What is left of a finished interaction, so its pages (back button, reload) can say so. */
const FINISHED = 'interaction-done'

interface FinishedInteraction {
  readonly clientName: string
  /** The app's origin, from its redirect URI, when that is a web page. */
  readonly appUrl?: string
}

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
  clientId: c.clientId,
  kind: c.kind,
  ...(c.clientName !== undefined ? { clientName: c.clientName } : {}),
  ...(c.clientUri !== undefined ? { clientUri: c.clientUri } : {}),
  ...(c.logoUri !== undefined ? { logoUri: c.logoUri } : {}),
})

/** In memory only: most requests of a signed-in owner need no page, and then no record. */
export const newInteraction = (request: AuthorizationRequest, client: OpClient, now: number): Interaction => ({
  id: randomId(),
  request,
  client: summarizeClient(client),
  createdAt: now,
})

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

/**
 * Ends a stored interaction (code issued or request refused). A short-lived marker stays until the
 * interaction would have expired: going back to its login or consent page then says it is over
 * and links to the app, instead of calling it unknown.
 */
export async function finishInteraction(store: Store, i: Interaction): Promise<void> {
  const redirect = URL.canParse(i.request.redirectUri) ? new URL(i.request.redirectUri) : undefined
  const appUrl = redirect && /^https?:$/.test(redirect.protocol) ? `${redirect.origin}/` : undefined
  const marker: FinishedInteraction = { clientName: i.client.clientName ?? i.client.clientId, ...(appUrl ? { appUrl } : {}) }
  await putRecord(store, FINISHED, i.id, marker, i.createdAt + INTERACTION_TTL_MS)
  await deleteRecord(store, KIND, i.id)
}

/** The page for an interaction id that is no longer pending: finished (back button) or unknown/expired. */
export async function renderGoneInteraction(store: Store, id: unknown, now: number, path: string, description: string): Promise<Response> {
  const finished = typeof id === 'string' && /^[A-Za-z0-9_-]{22}$/.test(id) ? await getRecord<FinishedInteraction>(store, FINISHED, id, now) : undefined
  if (!finished) return renderErrorPage(path, new HttpError(400, 'interaction_expired', description), APP_FLOW_NEXT)
  return renderMessagePage(
    'This sign-in is already over',
    `${finished.clientName} has had its answer from this page; a sign-in page works only once. Go back to the application: it is signed in, or it can start a new sign-in.`,
    finished.appUrl ? { href: finished.appUrl, label: `Back to ${finished.clientName}` } : undefined,
  )
}
