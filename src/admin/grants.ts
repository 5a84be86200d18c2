// The owner's access grants API: create (validated GrantData), list, read as JSON or RDF, revoke.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { jsonResponse } from '../http/json-response.ts'
import { negotiate } from '../http/content-negotiation.ts'
import { serializeRdf } from '../rdf/serialize-rdf.ts'
import { INTEROP } from '../rdf/namespaces.ts'
import { JSON_LD, N_TRIPLES, TURTLE } from '../rdf/media-types.ts'
import { ownerWebIdOf } from '../config.ts'
import { checkGrantShape, grantDataJsonSchema, type GrantData, type Violation } from '../policy/grant-schema.ts'
import { checkGrantMeaning } from '../policy/grant-rules.ts'
import type { GrantEntry, GrantRegistry } from '../policy/grant-registry.ts'
import { log } from '../log.ts'

type AdminDeps = Pick<Deps, 'cfg'>

const JSON_TYPE = 'application/json'
/** Far above any real grant (a few hundred instances); the document is validated and stored in one piece. */
const MAX_GRANT_BYTES = 1024 * 1024
const GRANT_OFFERS = [JSON_TYPE, TURTLE, JSON_LD, N_TRIPLES]

/** GET /.admin/schemas/grant-data.json: public, so clients validate before they send (JSON Schema 2020-12 §8.2.1 media type). */
export function grantSchemaResponse(): Response {
  return new Response(JSON.stringify(grantDataJsonSchema(), null, 2), {
    headers: { 'content-type': 'application/schema+json', 'cache-control': 'public, max-age=3600' },
  })
}

// GrantData requires https for the pod's own URLs (dataOwner, hasStorage, registrations, instances).
const httpsNeeded = (baseUrl: string) =>
  baseUrl.startsWith('http:')
    ? ` Grants need an https base URL: this pod runs at ${baseUrl}, so its owner and storage URLs cannot be https. ` +
      'Start it with --tls-cert/--tls-key and an https --base-url, or behind an https proxy with --base-url https://… (see docs/sharing.md, "Access grants").'
    : ''

function refuse(status: 400 | 422, violations: Violation[], baseUrl: string): HttpError {
  const what =
    status === 400 ? 'does not match the GrantData schema (GET /.admin/schemas/grant-data.json)' : 'is valid GrantData but cannot be granted on this pod'
  const list = violations.map(v => `${v.pointer || '(body)'}: expected ${v.expected}`).join('; ')
  return new HttpError(status, 'invalid_grant_data', `the grant ${what}: ${list}.${httpsNeeded(baseUrl)}`, { extra: { violations } })
}

/** POST /.admin/api/grants: 400 for schema violations, 422 for meaning; nothing is stored on either. */
export async function createGrant(deps: AdminDeps, grants: GrantRegistry, contentType: string | null, body: string): Promise<Response> {
  const { baseUrl } = deps.cfg
  if (!/^application\/json\b/i.test(contentType ?? '')) {
    throw new HttpError(415, 'unsupported_media_type', 'send the grant as application/json (GrantData)')
  }
  if (Buffer.byteLength(body) > MAX_GRANT_BYTES) throw new HttpError(413, 'payload_too_large', `a grant is at most ${MAX_GRANT_BYTES} bytes of JSON`)
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    throw refuse(400, [{ pointer: '', expected: 'a JSON object (GrantData); the body is not valid JSON' }], baseUrl)
  }
  const shape = checkGrantShape(value)
  if (shape.length > 0) throw refuse(400, shape, baseUrl)
  const meaning = checkGrantMeaning(value as GrantData, { baseUrl, ownerWebId: ownerWebIdOf(baseUrl) })
  if (meaning.length > 0) throw refuse(422, meaning, baseUrl)
  const entry = await grants.create(value as GrantData)
  log.info('admin.grant_created', { grant: entry.iri, grantee: entry.data.grantee })
  return jsonResponse(entry.data, { status: 201, headers: { location: entry.iri, 'content-location': entry.iri } })
}

const summary = (e: GrantEntry) => ({ iri: e.iri, createdAt: new Date(e.createdAt).toISOString(), grant: e.data })

/** GET /.admin/api/grants[?grantee=…][&registration=…] */
export async function listGrants(grants: GrantRegistry, query: { grantee?: string; registration?: string }): Promise<Response> {
  const filter = {
    ...(query.grantee ? { grantee: query.grantee } : {}),
    ...(query.registration ? { registration: query.registration } : {}),
  }
  return jsonResponse({ grants: (await grants.list(filter)).map(summary) })
}

/** GET /.admin/api/grants/:id: GrantData JSON, or the grant's RDF document (Turtle, JSON-LD, N-Triples). */
export async function readGrant(grants: GrantRegistry, id: string, accept: string | null): Promise<Response> {
  const entry = await grants.get(id)
  if (!entry) throw new HttpError(404, 'not_found', 'there is no grant with this id (revoked grants are gone)')
  const type = negotiate(accept, GRANT_OFFERS)
  if (!type) throw new HttpError(406, 'not_acceptable', `a grant is available as ${GRANT_OFFERS.join(', ')}`)
  const headers = { vary: 'Accept', 'content-location': entry.iri }
  if (type === JSON_TYPE) return jsonResponse(entry.data, { headers })
  const body = await serializeRdf(await grants.quadsOf(id), type, entry.iri, { interop: INTEROP('') })
  return new Response(body, { headers: { 'content-type': type, 'cache-control': 'no-store', ...headers } })
}

/** DELETE /.admin/api/grants/:id: grants are immutable, so changing one is revoke + create. */
export async function revokeGrant(grants: GrantRegistry, id: string): Promise<Response> {
  if (!(await grants.revoke(id))) throw new HttpError(404, 'not_found', 'there is no grant with this id')
  log.info('admin.grant_revoked', { grant: grants.iriOf(id) })
  return new Response(null, { status: 204 })
}
