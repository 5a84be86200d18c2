// A script acting as a solopod's owner with a client credential (solopod clients add):
// a DPoP key, an access token (grant_type=client_credentials), then PUT and GET of one document.
//
//   SOLOPOD_CLIENT_ID=… SOLOPOD_CLIENT_SECRET=… node examples/client-credentials.mjs URL [TEXT]
//
// With TEXT it writes TEXT to URL (text/plain) first; either way it reads URL and prints it.
// Needs Node.js 20+ (or Bun) and the `jose` package (npm install jose).

import { exportJWK, generateKeyPair, SignJWT, base64url } from 'jose'

const [url, text] = process.argv.slice(2)
const { SOLOPOD_CLIENT_ID: id, SOLOPOD_CLIENT_SECRET: secret } = process.env
if (!url || !id || !secret) {
  console.error('usage: SOLOPOD_CLIENT_ID=… SOLOPOD_CLIENT_SECRET=… node client-credentials.mjs URL [TEXT]')
  process.exit(2)
}

// The key every token is bound to (RFC 9449): made anew each run, never leaves this process
const { privateKey, publicKey } = await generateKeyPair('ES256')
const jwk = await exportJWK(publicKey)

/** A DPoP proof (RFC 9449 §4.2) for one request; with a token, its hash (ath) too. */
async function dpop(method, target, accessToken) {
  const ath = accessToken && base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken))))
  return new SignJWT({ htm: method, htu: target.split(/[?#]/)[0], jti: crypto.randomUUID(), ...(ath ? { ath } : {}) })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk }).setIssuedAt().sign(privateKey)
}

async function fail(what, res) {
  console.error(`${what}: ${res.status} ${await res.text()}`)
  process.exit(1)
}

// The pod's token endpoint, from its OpenID configuration
const origin = new URL(url).origin
const config = await (await fetch(`${origin}/.well-known/openid-configuration`)).json()

// RFC 6749 §4.4.2 with client_secret_basic (§2.3.1: id and secret form-encoded, then base64)
const basic = Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')
const tokenRes = await fetch(config.token_endpoint, {
  method: 'POST',
  headers: { authorization: `Basic ${basic}`, dpop: await dpop('POST', config.token_endpoint), 'content-type': 'application/x-www-form-urlencoded' },
  body: 'grant_type=client_credentials',
})
if (!tokenRes.ok) await fail('token', tokenRes)
const { access_token: token } = await tokenRes.json()
const withToken = async (method) => ({ authorization: `DPoP ${token}`, dpop: await dpop(method, url, token) })

if (text !== undefined) {
  const put = await fetch(url, { method: 'PUT', headers: { ...await withToken('PUT'), 'content-type': 'text/plain' }, body: text })
  if (!put.ok) await fail('PUT', put)
  console.error(`PUT ${url}: ${put.status}`)
}
const get = await fetch(url, { headers: await withToken('GET') })
if (!get.ok) await fail('GET', get)
process.stdout.write(await get.text())
