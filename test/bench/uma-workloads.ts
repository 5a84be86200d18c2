// Issue 10's workloads: what a UMA ticket costs a refused request, whole exchanges per second, and GETs with a UMA token.

import { writeTurtle } from '../e2e/seed-store.ts'
import { readUmaChallenge, ID_TOKEN_FORMAT, UMA_GRANT } from '../e2e/uma-client.ts'
import { dpopProof, FORM, type DpopKey } from '../op/op-fixture.ts'
import { httpOperation } from './load.ts'
import { DOC_1K } from './documents.ts'
import { presign } from './presigned.ts'
import { openAppSessions } from './app-sessions.ts'
import type { BenchContext, Workload } from './workloads.ts'

/** Outside the public /bench/ container: owner only, so anonymous requests get 401 + a ticket. */
const UMA_DOC_PATH = '/private/uma-doc-1k'
const TURTLE = 'text/turtle'
/** Token-request proofs signed before the run, so the load generator does not take the pod's CPU for ES256. */
const PRESIGNED = 20_000

const seed = (store: Parameters<NonNullable<Workload['seed']>>[0], baseUrl: string) => writeTurtle(store, baseUrl, UMA_DOC_PATH, DOC_1K)

/** The owner as a requesting party: an ID token from the pod's own OP, bound to `key`. */
async function requestingParty(ctx: BenchContext): Promise<{ key: DpopKey; idToken: string }> {
  const {
    sessions: [owner],
  } = await openAppSessions(ctx, 1)
  return { key: owner!.key, idToken: owner!.tokens.id_token as string }
}

/** A pool of POST proofs for the token endpoint (each jti used once), topped up on the fly past it. */
async function tokenProofs(ctx: BenchContext, key: DpopKey, count: number): Promise<() => Promise<string>> {
  const htu = `${ctx.pod.baseUrl}/.uma/token`
  // 2,000 a second of iat: about the rate the exchanges are sent at (~1,500 a second), as a client signing each
  // request would; the token endpoints' replay memory this key shares with 32 refreshing sessions holds 15,729
  // proofs with the default budget, and a key past what is left to it within one second is refused (429)
  return presign(() => dpopProof(key, 'POST', htu, Date.now()), count, { perSecond: 2000 })
}

async function trade(ctx: BenchContext, ticket: string, idToken: string, proof: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${ctx.pod.origin}/.uma/token`, {
    method: 'POST',
    headers: { 'content-type': FORM, dpop: proof },
    body: new URLSearchParams({ grant_type: UMA_GRANT, ticket, claim_token: idToken, claim_token_format: ID_TOKEN_FORMAT }),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

export const UMA_WORKLOADS: readonly Workload[] = [
  {
    // Every refused anonymous request records a ticket (one unsynced LevelDB put): a flood's cost.
    name: 'anonymous 401 + UMA ticket (owner-only doc)',
    seed,
    prepare: async ({ pod }) => httpOperation(() => new Request(`${pod.origin}${UMA_DOC_PATH}`, { headers: { accept: TURTLE } }), [401]),
    ceiling: 'public GET 1 KB Turtle',
  },
  {
    name: 'UMA exchange: 401 → token → GET (owner)',
    seed,
    prepare: async ctx => {
      const { key, idToken } = await requestingParty(ctx)
      const nextProof = await tokenProofs(ctx, key, PRESIGNED)
      const url = `${ctx.pod.origin}${UMA_DOC_PATH}`
      return async () => {
        const refused = await fetch(url)
        await refused.arrayBuffer()
        if (refused.status !== 401) return `first GET ${refused.status}`
        const { status, body } = await trade(ctx, readUmaChallenge(refused).ticket, idToken, await nextProof())
        if (status !== 200) return `token ${status} ${body.error}`
        const res = await fetch(url, { headers: { authorization: `Bearer ${body.access_token}`, accept: TURTLE } })
        await res.arrayBuffer()
        return res.status === 200 ? undefined : `GET with the token ${res.status}`
      }
    },
  },
  {
    // Issue 10 aim: a UMA-token GET costs no more than a DPoP GET (no proof to verify; the token's check is cached).
    name: 'UMA-token GET 1 KB Turtle (owner, Bearer)',
    seed,
    prepare: async ctx => {
      const { key, idToken } = await requestingParty(ctx)
      const refused = await fetch(`${ctx.pod.origin}${UMA_DOC_PATH}`)
      const { status, body } = await trade(
        ctx,
        readUmaChallenge(refused).ticket,
        idToken,
        await dpopProof(key, 'POST', `${ctx.pod.baseUrl}/.uma/token`, Date.now()),
      )
      if (status !== 200) throw new Error(`the UMA exchange failed: ${status} ${body.error}`)
      const authorization = `Bearer ${body.access_token}`
      return httpOperation(() => new Request(`${ctx.pod.origin}${UMA_DOC_PATH}`, { headers: { accept: TURTLE, authorization } }), [200])
    },
    ceiling: 'DPoP GET 1 KB Turtle (owner)',
    aim: 1,
  },
]
