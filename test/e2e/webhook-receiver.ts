// A webhook receiver on 127.0.0.1 for the e2e tests: records what the pod POSTs, answers as each path is told
// (200, an error first, never), and checks a delivery's RFC 9421 signature with an independent verifier
// (npm http-message-signatures) and the key fetched from the URL its keyid names.

import { createHash, createPublicKey } from 'node:crypto'
import { createVerifier, httpbis } from 'http-message-signatures'
import { parseTurtle } from '../rs/rs-helpers.ts'

export interface Delivery {
  readonly path: string
  readonly url: string
  readonly headers: Record<string, string>
  readonly body: string
  readonly json: { id: string; type: string; object: string; target?: string; state?: string; published: string; '@context': string[] }
}

/** How a path answers its n-th request (from 1); undefined: 200. A promise that never settles: no answer. */
export type Behaviour = (n: number) => Response | Promise<Response | undefined> | undefined

export function startReceiver() {
  const deliveries: Delivery[] = []
  const attempts = new Map<string, number>()
  const behaviours = new Map<string, Behaviour>()
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 30,
    async fetch(req) {
      const url = new URL(req.url)
      const body = await req.text()
      const n = (attempts.get(url.pathname) ?? 0) + 1
      attempts.set(url.pathname, n)
      const answer = await behaviours.get(url.pathname)?.(n)
      if (answer && answer.status >= 300) return answer
      deliveries.push({ path: url.pathname, url: req.url, headers: Object.fromEntries(req.headers), body, json: JSON.parse(body) })
      return answer ?? new Response('thanks')
    },
  })
  const base = `http://127.0.0.1:${server.port}`
  return {
    base,
    deliveries,
    /** Deliveries to `path`, in the order they arrived. */
    at: (path: string) => deliveries.filter(d => d.path === path),
    attemptsAt: (path: string) => attempts.get(path) ?? 0,
    behave: (path: string, b: Behaviour) => {
      behaviours.set(path, b)
    },
    stop: () => server.stop(true),
  }
}

export type Receiver = ReturnType<typeof startReceiver>

/** Polls `check` until it holds (or throws after `ms`, saying `what`). */
export async function eventually(check: () => boolean, what: string, ms = 8000): Promise<void> {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`)
    await Bun.sleep(25)
  }
}

/**
 * RFC 9421 verification of a delivery as a receiver would do it: the key document its keyid names is fetched
 * (Turtle) and its `sec:publicKeyJwk` used; @method, @target-uri, content-type and content-digest must be
 * covered, with created, keyid and alg. Also checks the RFC 9530 Content-Digest against the body.
 */
export async function verifyDelivery(d: Delivery): Promise<{ verified: boolean | null; keyid?: string; digestMatches: boolean }> {
  let keyid: string | undefined
  const verified = await httpbis.verifyMessage(
    {
      keyLookup: async params => {
        keyid = params.keyid
        const docUrl = String(params.keyid).split('#')[0]!
        const res = await fetch(docUrl, { headers: { accept: 'text/turtle' } })
        const quads = parseTurtle(await res.text(), docUrl)
        const jwk = quads.find(q => q.subject.value === params.keyid && q.predicate.value === 'https://w3id.org/security#publicKeyJwk')
        if (!jwk) return null
        const key = createPublicKey({ key: JSON.parse(jwk.object.value), format: 'jwk' })
        return { id: params.keyid, algs: ['ed25519'], verify: createVerifier(key, 'ed25519') }
      },
      requiredFields: ['@method', '@target-uri', 'content-type', 'content-digest'],
      requiredParams: ['created', 'keyid', 'alg'],
      maxAge: 120,
    },
    { method: 'POST', url: d.url, headers: d.headers },
  )
  const digestMatches = d.headers['content-digest'] === `sha-256=:${createHash('sha256').update(d.body).digest('base64')}:`
  return { verified, ...(keyid !== undefined ? { keyid } : {}), digestMatches }
}
