import { describe, expect, test } from 'bun:test'
import { CLIENT_ID_CONTEXT, isClientIdDocumentUrl, parseClientIdDocument } from '../../src/op/clients.ts'
import { HttpError } from '../../src/http/errors.ts'
import { isGenuine, newRefreshFamily, parseRefreshToken, refreshTokenOf } from '../../src/op/refresh-tokens.ts'

const ID = 'https://app.example/id'
const doc = (o: Record<string, unknown> = {}) =>
  JSON.stringify({ '@context': [CLIENT_ID_CONTEXT], client_id: ID, redirect_uris: ['https://app.example/cb'], ...o })
const refusal = (body: string) => {
  try {
    parseClientIdDocument(ID, body)
  } catch (e) {
    return e as HttpError
  }
  throw new Error('accepted')
}

describe('Solid-OIDC §5, RFC 7591 Client ID Document checks', () => {
  test('reads the fields of a valid document as plain JSON (post_logout_redirect_uris included)', () => {
    const c = parseClientIdDocument(ID, doc({ client_name: 'App', post_logout_redirect_uris: ['https://app.example/bye'], default_max_age: 60 }))
    expect(c).toMatchObject({
      clientId: ID,
      kind: 'document',
      isPublic: true,
      clientName: 'App',
      postLogoutRedirectUris: ['https://app.example/bye'],
      defaultMaxAge: 60,
    })
  })
  test.each([
    ['not JSON', '{'],
    ['a JSON array', '[]'],
    ['no @context', JSON.stringify({ client_id: ID, redirect_uris: ['https://app.example/cb'] })],
    ['another context only', doc({ '@context': 'https://www.w3.org/ns/activitystreams' })],
    ['client_id of another URL', doc({ client_id: 'https://app.example/other' })],
    ['client_id with a trailing slash', doc({ client_id: `${ID}/` })],
    ['no redirect_uris', doc({ redirect_uris: undefined })],
    ['redirect_uris not strings', doc({ redirect_uris: [1] })],
    ['client_name not a string', doc({ client_name: 5 })],
    ['a javascript: redirect URI', doc({ redirect_uris: ['javascript:alert(1)'] })],
    ['a relative redirect URI', doc({ redirect_uris: ['/cb'] })],
    ['a javascript: post-logout redirect URI', doc({ post_logout_redirect_uris: ['javascript:alert(1)'] })],
  ])('refuses %s with 400 invalid_client', (_, body) => {
    const e = refusal(body)
    expect({ status: e.status, code: e.code }).toEqual({ status: 400, code: 'invalid_client' })
  })
  test('client_ids that are http(s) URLs are Client ID Documents; others are registered ids', () => {
    expect(isClientIdDocumentUrl(ID)).toBe(true)
    expect(isClientIdDocumentUrl('http://localhost:3000/app')).toBe(true)
    expect(isClientIdDocumentUrl('abc123')).toBe(false)
    expect(isClientIdDocumentUrl('urn:x:y')).toBe(false)
  })
})

describe('refresh tokens (one MAC key per family)', () => {
  const sid = 'AAAAAAAAAAAAAAAAAAAAAA'
  test('a token of the family is genuine at its generation only', () => {
    const f = newRefreshFamily()
    const t = parseRefreshToken(refreshTokenOf(sid, f))!
    expect(t).toMatchObject({ sid, generation: 0 })
    expect(isGenuine(f, t)).toBe(true)
    expect(isGenuine(f, { ...t, generation: 1 })).toBe(false)
    expect(isGenuine(newRefreshFamily(), t)).toBe(false)
  })
  test('malformed tokens do not parse', () => {
    for (const bad of ['', 'x.y.z', `${sid}.0`, `${sid}.-1.${'A'.repeat(43)}`, `${sid}.0.${'A'.repeat(42)}`]) expect(parseRefreshToken(bad)).toBeUndefined()
  })
})
