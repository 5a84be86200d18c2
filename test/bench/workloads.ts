// The benchmark's named workloads. Add one here: a name, what to seed, and the operation to repeat.

import { ClassicLevel } from 'classic-level'
import type { Store } from '../../src/store/open-store.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { dpopProof } from '../op/op-fixture.ts'
import { requestTokens } from '../e2e/oidc-client.ts'
import { httpOperation, type Operation } from './load.ts'
import { DOC_1K, editedDoc1k } from './documents.ts'
import { presign } from './presigned.ts'
import { lendSessions, openAppSessions } from './app-sessions.ts'
import { UMA_WORKLOADS } from './uma-workloads.ts'
import { keyDocument, makeKey, readAcl } from '../auth/httpsig/key-fixture.ts'
import { signedHeaders } from '../auth/httpsig/sign-request.ts'

/** Where the servers of one run listen (loopback only). */
export interface BenchContext {
  /** The pod: `origin` is what we connect to, `baseUrl` what it believes it is. */
  readonly pod: { readonly origin: string; readonly baseUrl: string }
  /** The bare Bun.serve handler of test/bench/bare-server.ts: the ceiling. */
  readonly bare: { readonly origin: string }
  /** A fresh temporary directory per workload, removed after the run. */
  readonly tempDir: () => string
  /** Runs after every workload has finished (close what prepare opened). */
  readonly onCleanup: (fn: () => Promise<void>) => void
  /** How many operations run at once (--concurrency). */
  readonly concurrency: number
}

export interface Workload {
  readonly name: string
  /**
   * Runs against the data directory before the pod starts, through the store API only; `/bench/`
   * already exists with a public Read/Write ACL (acl:default), so everything below it is public.
   */
  readonly seed?: (store: Store, baseUrl: string) => Promise<void>
  /** Called once the servers are up; returns the operation the load generator repeats. */
  readonly prepare: (ctx: BenchContext) => Promise<Operation>
  /** The workload measuring the ceiling of this one; the report prints this/ceiling. */
  readonly ceiling?: string
  /** What the ratio should reach (issue 3 "Benchmark"); printed beside it, never asserted. */
  readonly aim?: number
  /** Requests per second it should reach (issue 9); printed beside it, never asserted. */
  readonly aimRps?: number
  /** Runs at this many operations at once whatever --concurrency says (issue 9 measures PUT at c50). */
  readonly concurrency?: number
}

/** The container every seed writes below; run.ts gives it the public ACL. */
/** Enough for ~8 s at 5k req/s; signing them takes a few seconds before the measured run. */
const PRESIGNED_PROOFS = 40_000

export const BENCH_CONTAINER = '/bench/'

const TURTLE = 'text/turtle'
const DOC_PATH = `${BENCH_CONTAINER}doc-1k`
const LIST_PATH = `${BENCH_CONTAINER}list/`
/** Outside BENCH_CONTAINER, so the default root ACL applies: owner only. */
const OWNER_DOC_PATH = '/private/doc-1k'
const PUT_NAMES = 200
/** Readable only by the holder of BENCH_KEY (acl:agent [ cert:key </keys/bench#key> ]). */
const SIGNED_DOC_PATH = '/signed/doc-1k'
const BENCH_KEY = makeKey('ecdsa-p256-sha256')

const get = (url: string) => () => new Request(url, { headers: { accept: TURTLE } })

export const WORKLOADS: readonly Workload[] = [
  {
    name: 'bare Bun.serve GET 1 KB (ceiling)',
    prepare: async ({ bare }) => httpOperation(get(`${bare.origin}${DOC_PATH}`), [200]),
  },
  {
    name: 'public GET 1 KB Turtle',
    seed: (store, baseUrl) => writeTurtle(store, baseUrl, DOC_PATH, DOC_1K),
    prepare: async ({ pod }) => httpOperation(get(`${pod.origin}${DOC_PATH}`), [200]),
    ceiling: 'bare Bun.serve GET 1 KB (ceiling)',
    // Issue 9 "Reads": half of a bare Bun.serve answering the same bytes.
    aim: 0.5,
  },
  {
    // Issue 5: within 2× of the public GET, one ES256 verification per request (the proof; the
    // access token's is cached). The load generator still builds and sends a 1.5 KB request on the
    // pod's cores, so req/s understates the pod: dpop-cpu-bound.ts reads the pod's own CPU.
    name: 'DPoP GET 1 KB Turtle (owner)',
    seed: (store, baseUrl) => writeTurtle(store, baseUrl, OWNER_DOC_PATH, DOC_1K),
    prepare: async ctx => {
      const {
        sessions: [owner],
      } = await openAppSessions(ctx, 1)
      const token = owner!.tokens.access_token as string
      // htu is the resource as the pod names it (its base URL), not the loopback address we connect to.
      const htu = `${ctx.pod.baseUrl}${OWNER_DOC_PATH}`
      const sign = () => dpopProof(owner!.key, 'GET', htu, Date.now(), { accessToken: token })
      // Proofs are signed before the run (each with its own jti, used once), so the load generator
      // does not take the pod's CPU for ES256 signing; past the pool, or once its proofs near the
      // pod's 60 s window, it signs on the fly.
      const proof = await presign(sign, PRESIGNED_PROOFS)
      return httpOperation(
        async () =>
          new Request(`${ctx.pod.origin}${OWNER_DOC_PATH}`, {
            headers: { accept: TURTLE, authorization: `DPoP ${token}`, dpop: await proof() },
          }),
        [200],
      )
    },
    ceiling: 'public GET 1 KB Turtle',
    aim: 0.5,
    aimRps: 5000,
  },
  {
    // Issue 11: within 20 % of the DPoP GET. One ES256 verification per request with a fresh created and
    // nonce; the key document is read from the store each time (its parse is cached per ETag). Signed
    // before the run, like the DPoP proofs, so the load generator does not share the pod's CPU.
    name: 'HttpSig GET 1 KB Turtle (key on this pod)',
    seed: async (store, baseUrl) => {
      await writeTurtle(store, baseUrl, SIGNED_DOC_PATH, DOC_1K)
      await writeTurtle(store, baseUrl, `${SIGNED_DOC_PATH}.acl`, readAcl(baseUrl + SIGNED_DOC_PATH, 'acl:agent [ cert:key </keys/bench#key> ]'))
      await writeTurtle(store, baseUrl, '/keys/bench', keyDocument(BENCH_KEY.publicJwk, `${baseUrl}/profile/card#me`))
    },
    prepare: async ctx => {
      // @target-uri is the resource as the pod names it (its base URL), not the loopback address we connect to.
      const sign = () => signedHeaders(`${ctx.pod.baseUrl}${SIGNED_DOC_PATH}`, { key: BENCH_KEY.privateKey, alg: BENCH_KEY.alg, keyid: '/keys/bench#key' })
      const signature = await presign(sign, PRESIGNED_PROOFS)
      return httpOperation(
        async () =>
          new Request(`${ctx.pod.origin}${SIGNED_DOC_PATH}`, {
            headers: { accept: TURTLE, ...(await signature()) },
          }),
        [200],
      )
    },
    ceiling: 'DPoP GET 1 KB Turtle (owner)',
    aim: 0.8,
  },
  {
    name: 'GET 100-child container',
    seed: async (store, baseUrl) => {
      await writeTurtle(store, baseUrl, LIST_PATH, '')
      for (let i = 0; i < 100; i++) {
        await writeTurtle(store, baseUrl, `${LIST_PATH}child-${String(i).padStart(3, '0')}`, `<#it> <http://purl.org/dc/terms/title> "child ${i}".`)
      }
    },
    prepare: async ({ pod }) => httpOperation(get(`${pod.origin}${LIST_PATH}`), [200]),
  },
  {
    // What one synced put at a time allows; the pod's group commit (store/group-commit.ts) shares each sync among concurrent PUTs.
    name: 'serial synced 1 KB LevelDB put (PUT ceiling)',
    prepare: async ({ tempDir, onCleanup }) => {
      const db = new ClassicLevel<string, string>(tempDir())
      await db.open()
      onCleanup(() => db.close())
      // One synced put after the other, whatever the concurrency: what one fsync at a time allows.
      let tail: Promise<unknown> = Promise.resolve()
      return async i => {
        const put = tail.then(() => db.put(`doc-${i % PUT_NAMES}`, DOC_1K, { sync: true }))
        tail = put.catch(() => undefined)
        await put
        return undefined
      }
    },
  },
  {
    name: 'PUT 1 KB Turtle (c50)',
    concurrency: 50,
    aimRps: 2000,
    // Overwrites a rotating set of documents (steady state, not an ever-growing container), each
    // save changing one triple of the last: the store writes only the keys that change.
    prepare: async ({ pod }) =>
      httpOperation(
        i =>
          new Request(`${pod.origin}${BENCH_CONTAINER}put/doc-${i % PUT_NAMES}`, { method: 'PUT', headers: { 'content-type': TURTLE }, body: editedDoc1k(i) }),
        [201, 204, 205],
      ),
    ceiling: 'serial synced 1 KB LevelDB put (PUT ceiling)',
    // Issue 22 "Small writes": at c50, 0.6 of one synced put after the other on the same disk.
    aim: 0.6,
  },
  {
    // Issue 5: token endpoint exchanges per second. Codes are single-use and need a login each, so
    // this measures refresh_token grants: each rotates its session's token, so a session serves one
    // request at a time and there are as many as the concurrency. Each proof is signed here, on the
    // pod's cores (see the DPoP GET).
    name: 'token endpoint: refresh_token exchange (DPoP)',
    prepare: async ctx => {
      const { client, sessions } = await openAppSessions(ctx, ctx.concurrency)
      const withSession = lendSessions(sessions)
      return () =>
        withSession(async s => {
          const res = await requestTokens(
            `${ctx.pod.origin}/.oidc/token`,
            s.key,
            { grant_type: 'refresh_token', refresh_token: s.tokens.refresh_token as string, client_id: client.clientId },
            `${ctx.pod.baseUrl}/.oidc/token`,
          )
          const body = (await res.json()) as Record<string, string | number>
          if (res.status !== 200) return `status ${res.status} ${body.error}`
          s.tokens = body
          return undefined
        })
    },
  },
  ...UMA_WORKLOADS,
]
