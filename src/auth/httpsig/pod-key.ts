// The pod's own signing key (Ed25519): it signs the webhook deliveries (RFC 9421), and its public key document
// (NOTIFY_PATHS.webhookKey) lets a receiver check them. Made on first use and kept in the store's system space.

import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import type { Quad } from '@rdfjs/types'
import { DataFactory } from '../../lib/n3.ts'
import type { Store } from '../../store/open-store.ts'
import { NOTIFY_PATHS } from '../../http/pod-paths.ts'
import { RDF, SEC } from '../../rdf/namespaces.ts'

const { namedNode, literal, quad } = DataFactory

const SYSTEM_KEY = 'pod-signing-key'

interface StoredPodKey {
  /** Private JWK: stays in the store; never logged, never served. */
  readonly privateJwk: JsonWebKey
  readonly publicJwk: JsonWebKey
  readonly createdAt: number
}

export interface PodKey {
  /** `BASE/.notifications/webhook-key#key`: the `keyid` of every signature the pod makes. */
  readonly keyid: string
  /** The key document's URL: the channel's `sender`. */
  readonly documentUrl: string
  readonly privateKey: KeyObject
  /** The public JWK as the key document publishes it (`kty`, `crv`, `x`, `alg`, `use`). */
  readonly publicJwk: Readonly<Record<string, string>>
}

function newKey(now: number): StoredPodKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  const pub = publicKey.export({ format: 'jwk' })
  return {
    privateJwk: privateKey.export({ format: 'jwk' }),
    publicJwk: { kty: pub.kty!, crv: pub.crv!, x: pub.x!, alg: 'EdDSA', use: 'sig' } as JsonWebKey,
    createdAt: now,
  }
}

/** The pod's key of one store, loaded (or made) once: concurrent first uses make one key, not two. */
export function makePodKey(store: Store, baseUrl: string, now: () => number) {
  const documentUrl = baseUrl + NOTIFY_PATHS.webhookKey
  let loaded: Promise<PodKey> | undefined
  async function load(): Promise<PodKey> {
    let stored = (await store.system.get(SYSTEM_KEY)) as StoredPodKey | undefined
    if (!stored) {
      stored = newKey(now())
      await store.system.put(SYSTEM_KEY, stored, { sync: true })
    }
    return {
      keyid: `${documentUrl}#key`,
      documentUrl,
      privateKey: createPrivateKey({ key: stored.privateJwk, format: 'jwk' }),
      publicJwk: stored.publicJwk as Record<string, string>,
    }
  }
  const current = (): Promise<PodKey> => {
    if (!loaded) {
      const p = load()
      loaded = p
      p.catch(() => {
        if (loaded === p) loaded = undefined
      })
    }
    return loaded
  }
  return {
    current,
    /** The key document: `<#key> a sec:JsonWebKey2020; sec:publicKeyJwk "…"^^rdf:JSON`, like the owner's in /keys/. */
    async documentQuads(): Promise<Quad[]> {
      const key = await current()
      const subject = namedNode(key.keyid)
      return [
        quad(subject, namedNode(RDF('type')), namedNode(SEC('JsonWebKey2020'))),
        quad(subject, namedNode(SEC('publicKeyJwk')), literal(JSON.stringify(key.publicJwk), namedNode(RDF('JSON')))),
      ]
    },
  }
}

export type PodKeys = ReturnType<typeof makePodKey>
