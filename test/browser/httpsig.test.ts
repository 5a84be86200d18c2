// HttpSig from a real browser: a page on another origin signs with WebCrypto through the npm
// http-message-signatures library (bundled for the browser) and reads the pod's answers across CORS.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Server } from 'bun'
import { newContext, screenshot, startBrowserPod, type RunningPod } from './harness.ts'
import { openStore } from '../../src/store/open-store.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { ACL_PREFIXES, keyDocument, makeKey, readAcl } from '../auth/httpsig/key-fixture.ts'

const key = makeKey('ecdsa-p256-sha256')
const privateJwk = key.privateKey.export({ format: 'jwk' })
let pod: RunningPod
let site: Server<undefined>

/** The library as a browser script: `window.signMessage` = httpbis.signMessage. */
async function bundleSigner(): Promise<string> {
  const entry = join(import.meta.dir, 'httpsig-signer-entry.ts')
  const built = await Bun.build({ entrypoints: [entry], target: 'browser', format: 'iife' })
  if (!built.success) throw new Error(`could not bundle the signer: ${built.logs.join('\n')}`)
  return built.outputs[0]!.text()
}

beforeAll(async () => {
  pod = await startBrowserPod({
    seed: async (dataDir, baseUrl) => {
      const store = await openStore(dataDir)
      try {
        await ensureOwner(store, baseUrl, Date.now())
        await writeTurtle(store, baseUrl, '/keys/browser', keyDocument(key.publicJwk, `${baseUrl}/profile/card#me`))
        await writeTurtle(store, baseUrl, '/shared/note', '<#it> <http://purl.org/dc/terms/title> "signed in a browser".')
        await writeTurtle(store, baseUrl, '/shared/note.acl', readAcl(`${baseUrl}/shared/note`, 'acl:agent [ cert:key </keys/browser#key> ]'))
        await writeTurtle(
          store,
          baseUrl,
          '/inbox/.acl',
          `${ACL_PREFIXES}
<#w> a acl:Authorization; acl:accessTo <${baseUrl}/inbox/>; acl:default <${baseUrl}/inbox/>; acl:mode acl:Read, acl:Write; acl:agent [ cert:key </keys/browser#key> ].`,
        )
      } finally {
        await store.close()
      }
    },
  })
  const signer = await bundleSigner()
  // Another origin than the pod's (127.0.0.1 vs localhost, another port): every request is cross-origin.
  site = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: req =>
      new URL(req.url).pathname === '/signer.js'
        ? new Response(signer, { headers: { 'content-type': 'text/javascript' } })
        : new Response('<!doctype html><meta charset="utf-8"><title>HttpSig client</title><script src="/signer.js"></script><pre id="out">…</pre>', {
            headers: { 'content-type': 'text/html' },
          }),
  })
}, 60_000)
afterAll(async () => {
  site?.stop(true)
  await pod?.dispose()
})

describe('HttpSig in a real browser, cross-origin', () => {
  test('a page reads the challenge, signs with WebCrypto and reads the resource', async () => {
    const context = await newContext()
    try {
      const page = await context.newPage()
      await page.goto(`http://127.0.0.1:${site.port}/`)
      const result = await page.evaluate(
        async ({ url, jwk }) => {
          const w = window as unknown as { signMessage: (config: unknown, msg: unknown) => Promise<{ headers: Record<string, string> }> }
          const anon = await fetch(url)
          const challenge = {
            status: anon.status,
            wwwAuthenticate: anon.headers.get('www-authenticate'),
            acceptSignature: anon.headers.get('accept-signature'),
          }
          const cryptoKey = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign'])
          const sign = async (data: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, cryptoKey, data))
          const signRequest = (method: string) =>
            w.signMessage(
              {
                key: { id: '/keys/browser#key', alg: 'ecdsa-p256-sha256', sign },
                name: 'sig1',
                fields: ['@method', '@target-uri', 'authorization'],
                params: ['created', 'nonce', 'keyid'],
                paramValues: { nonce: crypto.randomUUID() },
              },
              { method, url, headers: { authorization: 'HttpSig proof=sig1' } },
            )
          const signed = await signRequest('GET')
          const res = await fetch(url, { headers: signed.headers })
          // Past the browser's HTTP cache, which may answer a repeated GET itself (heuristic freshness from Last-Modified)
          const replay = await fetch(url, { headers: signed.headers, cache: 'no-store' })
          const out = {
            challenge,
            status: res.status,
            body: await res.text(),
            wacAllow: res.headers.get('wac-allow'),
            replay: { status: replay.status, wwwAuthenticate: replay.headers.get('www-authenticate') },
          }
          document.getElementById('out')!.textContent = JSON.stringify(out, null, 2)
          return out
        },
        { url: `${pod.baseUrl}/shared/note`, jwk: privateJwk },
      )
      await screenshot(page, 'httpsig-cross-origin')
      expect(result.challenge).toEqual({
        status: 401,
        wwwAuthenticate: expect.stringContaining('HttpSig realm="/shared/note"'),
        acceptSignature: 'sig1=("@method" "@target-uri" "authorization");created;nonce',
      })
      expect(result.status).toBe(200)
      expect(result.body).toContain('signed in a browser')
      expect(result.wacAllow).toBe('user="read",public=""')
      expect(result.replay.status).toBe(401)
      expect(result.replay.wwwAuthenticate).toContain('nonce was already used')
    } finally {
      await context.close()
    }
  })
  test('a page writes with a signed Content-Digest (RFC 9530, WebCrypto SHA-256); a swapped body is refused', async () => {
    const context = await newContext()
    try {
      const page = await context.newPage()
      await page.goto(`http://127.0.0.1:${site.port}/`)
      const result = await page.evaluate(
        async ({ base, jwk }) => {
          const w = window as unknown as { signMessage: (config: unknown, msg: unknown) => Promise<{ headers: Record<string, string> }> }
          const cryptoKey = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign'])
          const sign = async (data: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, cryptoKey, data))
          const digestOf = async (text: string) => {
            const d = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
            return `sha-256=:${btoa(String.fromCharCode(...d))}:`
          }
          const signedPut = async (url: string, signedBody: string) =>
            (
              await w.signMessage(
                {
                  key: { id: '/keys/browser#key', alg: 'ecdsa-p256-sha256', sign },
                  name: 'sig1',
                  fields: ['@method', '@target-uri', 'authorization', 'content-digest'],
                  params: ['created', 'nonce', 'keyid'],
                  paramValues: { nonce: crypto.randomUUID() },
                },
                {
                  method: 'PUT',
                  url,
                  headers: { authorization: 'HttpSig proof=sig1', 'content-type': 'text/turtle', 'content-digest': await digestOf(signedBody) },
                },
              )
            ).headers
          const body = '<#it> <http://purl.org/dc/terms/title> "written by a browser".'
          const anon = await fetch(`${base}/inbox/note`, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body })
          const put = await fetch(`${base}/inbox/note`, { method: 'PUT', headers: await signedPut(`${base}/inbox/note`, body), body })
          const swapped = await fetch(`${base}/inbox/swapped`, {
            method: 'PUT',
            headers: await signedPut(`${base}/inbox/swapped`, body),
            body: body.replace('browser', 'stranger'),
          })
          const readBack = async (url: string) => {
            const headers = (
              await w.signMessage(
                {
                  key: { id: '/keys/browser#key', alg: 'ecdsa-p256-sha256', sign },
                  name: 'sig1',
                  fields: ['@method', '@target-uri', 'authorization'],
                  params: ['created', 'nonce', 'keyid'],
                  paramValues: { nonce: crypto.randomUUID() },
                },
                { method: 'GET', url, headers: { authorization: 'HttpSig proof=sig1' } },
              )
            ).headers
            const res = await fetch(url, { headers })
            return { status: res.status, body: await res.text() }
          }
          const out = {
            anon: { status: anon.status, acceptSignature: anon.headers.get('accept-signature') },
            put: put.status,
            swapped: {
              status: swapped.status,
              wwwAuthenticate: swapped.headers.get('www-authenticate'),
              acceptSignature: swapped.headers.get('accept-signature'),
            },
            note: await readBack(`${base}/inbox/note`),
            swappedAfter: (await readBack(`${base}/inbox/swapped`)).status,
          }
          document.getElementById('out')!.textContent = JSON.stringify(out, null, 2)
          return out
        },
        { base: pod.baseUrl, jwk: privateJwk },
      )
      await screenshot(page, 'httpsig-signed-write')
      const withDigest = 'sig1=("@method" "@target-uri" "authorization" "content-digest");created;nonce'
      expect(result.anon).toEqual({ status: 401, acceptSignature: withDigest })
      expect(result.put).toBe(201)
      expect(result.note).toEqual({ status: 200, body: expect.stringContaining('written by a browser') })
      expect(result.swapped.status).toBe(401)
      expect(result.swapped.wwwAuthenticate).toContain(
        'HttpSig realm="/inbox/swapped", error="invalid_signature", error_description="the body does not match the signed Content-Digest (sha-256)',
      )
      expect(result.swapped.acceptSignature).toBe(withDigest)
      expect(result.swappedAfter).toBe(404)
    } finally {
      await context.close()
    }
  })
})
