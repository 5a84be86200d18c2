// The wiring: every long-lived piece of the pod (caches, replay memories, keys, locks) is built here,
// once per process, and handed to the role plugins as plain values and functions.

import type { Config } from './config.ts'
import type { Store } from './store/open-store.ts'
import { makeResourceLocks, type WithResourceLocks } from './store/resource-locks.ts'
import { makeFetcher, type FetchDoc, type FetcherOptions } from './fetch/guarded-fetch.ts'
import { makeClientAddresses, type ClientAddresses } from './http/client-address.ts'
import { makeAuthenticator, type Authenticate } from './auth/authenticate.ts'
import type { GetIssuerKeys, GetWebIdIssuers } from './auth/issuer-checks.ts'
import { makeIssuerKeyResolver } from './auth/issuer-keys.ts'
import { makeWebIdIssuerResolver } from './auth/webid-issuers.ts'
import { makeTicketBook, type TicketBook } from './uma/permission-tickets.ts'
import { withOwnerCookie } from './auth/owner-cookie.ts'
import { withBasicCredential } from './auth/basic-credential.ts'
import { JtiReplayCache } from './auth/dpop-replay.ts'
import { memoryShares } from './lib/memory-budget.ts'
import { replayLimits, spentTicketLimit } from './lib/replay-limits.ts'
import { NonceCache } from './auth/httpsig/nonce-cache.ts'
import { makeSigningKeys, type SigningKeys } from './account/signing-keys.ts'
import { makeSessionRevocations, type SessionRevocations } from './account/app-sessions.ts'
import { makeAppScopes, type AppScopes } from './account/app-scopes.ts'
import { loadLocalDocument, readOwnDocument } from './local-documents.ts'
import { makeGrantRegistry, type GrantRegistry } from './policy/grant-registry.ts'
import { makeAccessDecider, type AccessDecider } from './policy/access-decider.ts'
import { makeAccessControl } from './policy/access-control.ts'
import { makeResources, type Resources } from './resources/resources.ts'
import { makePublicView } from './policy/public-view.ts'
import { makeChannelRegistry, type ChannelRegistry } from './channels/channel-registry.ts'
import { makeLegacyCapabilities, type LegacyCapabilities } from './channels/legacy-capability.ts'
import { makeWebhooks, type Webhooks } from './channels/webhooks.ts'
import { makePoster, type Poster } from './fetch/guarded-post.ts'
import { makePodKey, type PodKeys } from './auth/httpsig/pod-key.ts'
import { makeCertificateState, type CertificateState } from './acme/certificate-status.ts'
import { makePodMetrics, type PodMetrics } from './http/pod-metrics.ts'
import { makeDiskUsage, type DiskUsage } from './store/disk-usage.ts'
import { makePodBackups, type PodBackups } from './store/pod-backups.ts'
import { makeLinkUses, type LinkUses } from './account/share-link-uses.ts'
import { describeCause, log } from './log.ts'
import { makePersonCards, type PersonCards } from './account/person-cards.ts'

export interface Deps {
  readonly cfg: Config
  /** The one database; it also holds the caches of its own contents (see `openStore`). */
  readonly store: Store
  /** Epoch milliseconds; tests pass a controllable clock. */
  readonly now: () => number
  /** The one way to GET a remote document: SSRF guard, size and time limits, cache. */
  readonly fetchDoc: FetchDoc
  /** Locks of the resources a write touches, held from its precondition checks to its commit. */
  readonly withResourceLocks: WithResourceLocks
  /** The OP's signing keys, loaded once. */
  readonly signingKeys: SigningKeys
  /** Revoked app sessions, answered from memory on every authenticated request. */
  readonly revocations: SessionRevocations
  /** The folders the owner limited each app to; the decider applies them to every request of that app. */
  readonly appScopes: AppScopes
  /** Remote issuers' keys (OP discovery → jwks_uri), one cache: the RS's token checks and the UMA AS share it. */
  readonly getIssuerKeys: GetIssuerKeys
  /** The issuers a WebID profile names (`solid:oidcIssuer`), read through the guarded fetcher. */
  readonly getWebIdIssuers: GetWebIdIssuers
  /** People's names and pictures from their WebID profiles, for the owner's pages (read in the background). */
  readonly people: PersonCards
  /** One authenticator for every role: one verified-token cache and one DPoP jti replay memory. */
  readonly authenticate: Authenticate
  /** UMA permission tickets: the RS issues them on refusals, the UMA AS redeems them. */
  readonly tickets: TicketBook
  /** RFC 9449 §11.1 replay memory of the resource requests' proofs (inside `authenticate`; here for the metrics). */
  readonly dpopReplay: JtiReplayCache
  /** RFC 9449 §11.1 replay memory of the token endpoints' proofs (OP and UMA AS; entries are scoped by htu). */
  readonly tokenEndpointReplay: JtiReplayCache
  /** Peer addresses the request handler records and rate limits read. */
  readonly clientAddresses: ClientAddresses
  /** The pod's access grants (stored as RDF, indexed in memory by grantee). */
  readonly grants: GrantRegistry
  /**
   * The one access decision (WAC ∪ grants) with its reasons: the RS enforces it, the owner's "why?"
   * answer reads it, and every other role asks it; so what the owner is told is what the pod does.
   */
  readonly decider: AccessDecider
  /**
   * The operations on the pod's resources for an explicit principal (move, trash, restore, delete a tree):
   * decided by `decider`, refused by the pod's essentials, announced by the store's change feed.
   */
  readonly resources: Resources
  /** Open notification channels: the notification role opens them, the owner's dashboard lists and ends them. */
  readonly channels: ChannelRegistry
  /** The Updates-Via URLs of the legacy solid-0.1 socket: the RS hands them out, the notification role reads them. */
  readonly legacyCapabilities: LegacyCapabilities
  /** WebhookChannel2023: stored subscriptions, the durable outbox and its delivery worker (started by openPod). */
  readonly webhooks: Webhooks
  /** The pod's own signing key: it signs webhook deliveries; its key document is public. */
  readonly podKey: PodKeys
  /** The one guarded POST (webhook deliveries, a visitor's token request at their provider). */
  readonly poster: Poster
  /** The certificate served (--domain or --tls-cert) and how its renewal goes: set by the server, read by the dashboard and the metrics. */
  readonly certificate: CertificateState
  /** Requests by route group, status and latency, failed sign-ins: the request handler and the OP record, the monitor renders. */
  readonly metrics: PodMetrics
  /** When this pod was opened (epoch ms): the dashboard's uptime. */
  readonly startedAt: number
  /** The data directory's size and its disk's free space (measured at most once a minute). */
  readonly diskUsage: () => Promise<DiskUsage>
  /** The owner's backups: the archive of the whole pod (one at a time) and when the last backup was made. */
  readonly backups: PodBackups
  /** The uses of share links, counted in memory and written every few seconds (the link face counts, listings add what is pending). */
  readonly linkUses: LinkUses
}

export interface DepsOptions {
  /** Test seams of the guarded fetcher (resolver, transport); the security settings come from cfg. */
  readonly fetcher?: Pick<FetcherOptions, 'fetchImpl' | 'lookup' | 'timeoutMs' | 'budget'>
}

export function makeDeps(cfg: Config, store: Store, now: () => number, opts: DepsOptions = {}): Deps {
  const fetchDoc = makeFetcher({
    allowInsecureLocal: cfg.allowInsecureLocal,
    baseUrl: cfg.baseUrl,
    now,
    ...opts.fetcher,
    // bound at request time: the public view is built on the decider, which is built with this fetcher
    localLoader: (url, accept) => loadLocalDocument(store, cfg.baseUrl, url, accept, now(), readableByPublic),
  })
  const signingKeys = makeSigningKeys(store)
  const revocations = makeSessionRevocations(store)
  const getIssuerKeys = makeIssuerKeyResolver({ baseUrl: cfg.baseUrl, ownJwks: signingKeys.publicJwks, fetchDoc, now })
  const getWebIdIssuers = makeWebIdIssuerResolver(fetchDoc, now)
  const grants = makeGrantRegistry({ store, cfg, now })
  const withResourceLocks = makeResourceLocks()
  const appScopes = makeAppScopes(store, cfg.baseUrl, withResourceLocks)
  const decider = makeAccessDecider(
    { cfg, store, now, fetchDoc, appScopes, readOwnDocument: (url, accept) => readOwnDocument(store, cfg.baseUrl, url, accept, now()) },
    grants,
  )
  const readableByPublic = makePublicView(decider, cfg.baseUrl)
  // The replay memories' bounds are bytes of the budget: state that anyone with a key and a credential can fill
  const replay = memoryShares(cfg.memoryBudgetBytes).replay
  const tickets = makeTicketBook({ store, now, maxSpent: spentTicketLimit(replay.spentTickets) })
  const resources = makeResources({ cfg, store, now, withResourceLocks, access: makeAccessControl({ decider, tickets, cfg }) })
  const channels = makeChannelRegistry({
    store,
    baseUrl: cfg.baseUrl,
    decider,
    revocations,
    now,
    maxChannels: cfg.maxChannels,
    maxChannelsPerClient: cfg.maxChannelsPerClient,
    bufferBytes: cfg.channelBufferBytes,
  })
  const podKey = makePodKey(store, cfg.baseUrl, now)
  // Webhooks go out through the same guards as every remote fetch (and the same test seams)
  const { lookup, fetchImpl } = opts.fetcher ?? {}
  const poster = makePoster({
    allowInsecureLocal: cfg.allowInsecureLocal,
    baseUrl: cfg.baseUrl,
    ...(lookup ? { lookup } : {}),
    ...(fetchImpl ? { fetchImpl } : {}),
  })
  const dpopReplay = new JtiReplayCache(replayLimits(replay.dpopProofs, cfg.dpopProofsPerKey))
  const clientAddresses = makeClientAddresses()
  return {
    cfg,
    store,
    now,
    fetchDoc,
    dpopReplay,
    signingKeys,
    revocations,
    appScopes,
    grants,
    poster,
    getIssuerKeys,
    getWebIdIssuers,
    people: makePersonCards(fetchDoc, now),
    decider,
    resources,
    channels,
    podKey,
    tickets,
    webhooks: makeWebhooks({ store, baseUrl: cfg.baseUrl, channels, poster, podKey, now }),
    legacyCapabilities: makeLegacyCapabilities({ store, baseUrl: cfg.baseUrl, now }),
    withResourceLocks,
    // the owner's dashboard acts through the pod's own endpoints with its session cookie + CSRF token
    // and a visitor's pages with the visitor's cookie + CSRF token; the owner's cookie is asked first;
    // a mounted drive (WebDAV) sends a client credential with HTTP Basic
    authenticate: withBasicCredential(
      withOwnerCookie(
        makeAuthenticator(
          {
            baseUrl: cfg.baseUrl,
            store,
            now,
            fetchDoc,
            readableByPublic,
            signingKeys,
            revocations,
            getIssuerKeys,
            getWebIdIssuers,
            umaTokenType: cfg.umaTokenType,
          },
          { replay: dpopReplay, nonces: new NonceCache(replayLimits(replay.httpsigNonces, cfg.httpsigNoncesPerKey)) },
        ),
        { baseUrl: cfg.baseUrl, store, now },
      ),
      { baseUrl: cfg.baseUrl, store, now, clientAddresses },
    ),
    tokenEndpointReplay: new JtiReplayCache(replayLimits(replay.tokenEndpointProofs, cfg.dpopProofsPerKey)),
    clientAddresses,
    certificate: makeCertificateState(),
    metrics: makePodMetrics(),
    startedAt: now(),
    diskUsage: makeDiskUsage(cfg.dataDir, now),
    backups: makePodBackups({ store, dataDir: cfg.dataDir, now }),
    linkUses: makeLinkUses(store, now, { onError: err => log.warn('links.uses_write_failed', { cause: describeCause(err) }) }),
  }
}
