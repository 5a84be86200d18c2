import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASE, openTestPod, type TestPod } from './op-fixture.ts'

let pod: TestPod
beforeAll(async () => {
  pod = await openTestPod()
})
afterAll(() => pod.close())

describe('Solid-OIDC §5: /.well-known/openid-configuration', () => {
  test('has every member of the seed table with the seed values', async () => {
    const res = await pod.request('/.well-known/openid-configuration')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    const m = await res.json()
    expect(m).toMatchObject({
      issuer: BASE,
      authorization_endpoint: `${BASE}/.oidc/auth`,
      token_endpoint: `${BASE}/.oidc/token`,
      userinfo_endpoint: `${BASE}/.oidc/userinfo`,
      registration_endpoint: `${BASE}/.oidc/reg`,
      end_session_endpoint: `${BASE}/.oidc/session/end`,
      jwks_uri: `${BASE}/.oidc/jwks`,
      response_types_supported: ['code'],
      // the seed's two, and client_credentials: Solid-OIDC requires it listed when offered
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      subject_types_supported: ['public'],
      claims_supported: ['sub', 'webid'],
      scopes_supported: ['openid', 'webid', 'profile', 'email', 'offline_access'],
      token_endpoint_auth_signing_alg_values_supported: ['ES256'],
      request_object_signing_alg_values_supported: ['ES256'],
      id_token_signing_alg_values_supported: ['ES256'],
      code_challenge_methods_supported: ['plain', 'S256'],
      claims_parameter_supported: false,
      request_parameter_supported: true,
      request_uri_parameter_supported: false,
      require_request_uri_registration: false,
    })
  })
  test('issuer is the configured base URL byte for byte (no trailing slash)', async () => {
    expect((await (await pod.request('/.well-known/openid-configuration')).json()).issuer).toBe(pod.deps.cfg.baseUrl)
  })
  test('lists client_secret_basic and none as token endpoint auth methods', async () => {
    expect((await (await pod.request('/.well-known/openid-configuration')).json()).token_endpoint_auth_methods_supported).toEqual([
      'client_secret_basic',
      'none',
    ])
  })
  test('adds the Solid, DPoP and RFC 9207 members', async () => {
    const m = await (await pod.request('/.well-known/openid-configuration')).json()
    expect(m.solid_oidc_supported).toBe('https://solidproject.org/TR/solid-oidc')
    expect(m.dpop_signing_alg_values_supported[0]).toBe('ES256')
    expect(m.dpop_signing_alg_values_supported).not.toContain('none')
    expect(m.dpop_signing_alg_values_supported.some((a: string) => a.startsWith('HS'))).toBe(false)
    expect(m.authorization_response_iss_parameter_supported).toBe(true)
  })
  test('is readable cross-origin (CORS)', async () => {
    const res = await pod.request('/.well-known/openid-configuration', { headers: { origin: 'https://app.example' } })
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
  })
})

describe('jwks_uri', () => {
  test('serves the ES256 public signing key, never private members', async () => {
    const res = await pod.request('/.oidc/jwks')
    expect(res.status).toBe(200)
    const { keys } = await res.json()
    expect(keys.length).toBe(1)
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })
    expect(typeof keys[0].kid).toBe('string')
    expect(keys[0].d).toBeUndefined()
  })
})

describe('each role writes its own errors', () => {
  test('a malformed token request is OAuth JSON; a malformed pod request stays plain text', async () => {
    const token = await pod.request('/.oidc/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type": 1}' })
    expect(token.status).toBe(400)
    expect(token.headers.get('content-type')).toBe('application/json')
    const rs = await pod.request('/a//b')
    expect(rs.status).toBe(400)
    expect(rs.headers.get('content-type')).toStartWith('text/plain')
    expect(await rs.text()).toStartWith('invalid_path:')
  })
})
