// The owner's HttpSig keys API: publish a public JWK made in the browser, list the keys in /keys/, revoke one.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import type { RefusalCode, StatusOf } from '../http/refusals.ts'
import { jsonResponse } from '../http/json-response.ts'
import { KEYS_PATH } from '../http/pod-paths.ts'
import { jwkThumbprint } from '../lib/jwk-thumbprint.ts'
import { defaultKeyName, listOwnerKeys, type PublishedKey } from '../auth/httpsig/owner-key-documents.ts'
import { publishOwnerKey, withdrawOwnerKey } from '../resources/owner-keys.ts'
import { log } from '../log.ts'
import { ownerActing } from './owner-acting.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'now' | 'resources'>

/** A public JWK is a few hundred bytes (an RSA-4096 one under 1 KiB); anything far larger is not a key. */
const MAX_KEY_BYTES = 16 * 1024
const MEMBERS = ['name', 'publicJwk', 'linkFromProfile']
/** The refusals of publishing that are about one member of the body. */
const INPUT_MEMBER: Partial<Record<string, string>> = { invalid_key: '/publicJwk', invalid_key_name: '/name', key_exists: '/name' }

/** The owner's pages write keys as the owner, through the operations layer, as any other of their writes. */
const writing = (deps: AdminDeps) => ({ resources: deps.resources, store: deps.store, baseUrl: deps.cfg.baseUrl })

/** The answer to POST /.admin/api/keys (the Keys page's script reads it): the published key and its RFC 7638 thumbprint. */
export type CreatedKey = PublishedKey & { readonly thumbprint: string }

/** A refusal naming the offending member (RFC 6901 pointer), as the grants API does, so a form shows it beside its field. */
const refuse = <C extends RefusalCode>(status: StatusOf<C>, code: C, pointer: string, expected: string) =>
  new HttpError<C>(status, code, `${pointer || '(body)'}: ${expected}`, { extra: { violations: [{ pointer, expected }] } })

/**
 * POST /.admin/api/keys `{ name?, publicJwk, linkFromProfile? }`: the browser made the key pair (WebCrypto) and
 * sends only the public half; the pod writes `/keys/<name>`, and links it from the owner's profile only when
 * asked (a linked key can act as the owner, with all of the owner's access). The body is never logged:
 * a person who pasted a private key by mistake must not find it in the log.
 */
export async function createKey(deps: AdminDeps, contentType: string | null, body: string): Promise<Response> {
  if (!/^application\/json\b/i.test(contentType ?? ''))
    throw new HttpError(415, 'unsupported_media_type', 'send the key as application/json: { "name": …, "publicJwk": { … } }')
  if (Buffer.byteLength(body) > MAX_KEY_BYTES) throw new HttpError(413, 'payload_too_large', `a key is at most ${MAX_KEY_BYTES} bytes of JSON`)
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    throw refuse(400, 'invalid_request', '', 'a JSON object { "name": …, "publicJwk": { … } }; the body is not valid JSON')
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw refuse(400, 'invalid_request', '', 'a JSON object { "name": …, "publicJwk": { … }, "linkFromProfile": false }')
  const input = value as Record<string, unknown>
  const extra = Object.keys(input).find(k => !MEMBERS.includes(k))
  if (extra !== undefined)
    throw refuse(
      400,
      'invalid_request',
      `/${extra.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      'no such member: send only name, publicJwk and linkFromProfile (never the private key)',
    )
  if (input.name !== undefined && typeof input.name !== 'string') throw refuse(400, 'invalid_key_name', '/name', 'a string')
  if (input.linkFromProfile !== undefined && typeof input.linkFromProfile !== 'boolean')
    throw refuse(400, 'invalid_request', '/linkFromProfile', 'true or false: whether the key may act as the owner')
  if (input.publicJwk === undefined) throw refuse(400, 'invalid_key', '/publicJwk', 'required: the public JWK of the new key')
  const name = input.name === undefined || input.name === '' ? defaultKeyName(new Date(deps.now())) : input.name
  let key
  try {
    key = await publishOwnerKey(writing(deps), ownerActing(deps.cfg.baseUrl), name, input.publicJwk, { linkFromProfile: input.linkFromProfile === true })
  } catch (err) {
    // What the body got wrong is named at its member; any other refusal is the write's own, as the layer said it
    if (!(err instanceof HttpError) || !(err.code in INPUT_MEMBER)) throw err
    throw refuse(err.status as StatusOf<typeof err.code>, err.code, INPUT_MEMBER[err.code]!, err.description)
  }
  const thumbprint = await jwkThumbprint(key.publicJwk as Parameters<typeof jwkThumbprint>[0])
  log.info('admin.key_created', { keyUrl: key.keyUrl, thumbprint, linkedFromProfile: key.linkedFromProfile })
  const created: CreatedKey = { ...key, thumbprint }
  return jsonResponse(created, { status: 201, headers: { location: key.documentUrl } })
}

/** GET /.admin/api/keys: every key of /keys/, with its URL, thumbprint and whether the profile links it. */
export async function listKeys(deps: AdminDeps): Promise<Response> {
  return jsonResponse({ container: deps.cfg.baseUrl + KEYS_PATH, keys: await listOwnerKeys(deps.store, deps.cfg.baseUrl) })
}

/** DELETE /.admin/api/keys/:name: the key document goes, and with it every signature by its keys. */
export async function revokeKey(deps: AdminDeps, name: string): Promise<Response> {
  const withdrawn = await withdrawOwnerKey(writing(deps), ownerActing(deps.cfg.baseUrl), name)
  if (!withdrawn) throw new HttpError(404, 'not_found', `there is no key document ${KEYS_PATH}${name.slice(0, 80)}`)
  log.info('admin.key_revoked', { keyUrls: withdrawn.keyUrls })
  return new Response(null, { status: 204 })
}
