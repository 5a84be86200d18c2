// Seeds a data directory through the store API before a server starts: public containers for e2e tests and the benchmark.

import { Parser } from 'n3'
import type { Quad } from '@rdfjs/types'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { turtleByteLength } from '../../src/rdf/serialize-rdf.ts'
import { writeResource } from '../../src/store/resources.ts'
import { ensureOwner } from '../../src/first-start.ts'

export type PublicMode = 'Read' | 'Write' | 'Append' | 'Control'

/** An ACL granting everyone (foaf:Agent) `modes` on a container and, by acl:default, on all below it. */
export const publicAcl = (containerUrl: string, modes: readonly PublicMode[]) => `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
@prefix foaf: <http://xmlns.com/foaf/0.1/>.
<#public> a acl:Authorization; acl:agentClass foaf:Agent;
  acl:accessTo <${containerUrl}>; acl:default <${containerUrl}>;
  acl:mode ${modes.map(m => `acl:${m}`).join(', ')}.`

export async function writeTurtle(store: Store, baseUrl: string, path: string, ttl: string, now = Date.now()) {
  const triples = new Parser({ baseIRI: baseUrl + path }).parse(ttl) as Quad[]
  await writeResource(
    store,
    baseUrl,
    path,
    {
      kind: path.endsWith('/') ? 'container' : 'rdf',
      contentType: 'text/turtle',
      triples,
      size: turtleByteLength(triples, baseUrl + path),
    },
    now,
  )
}

/**
 * Creates the owner (as a first start would), then `containerPath` with a public ACL. Never a
 * back door in the server: the pod reads this ACL like any other.
 */
export async function seedPublicContainer(
  dataDir: string,
  baseUrl: string,
  containerPath: string,
  modes: readonly PublicMode[],
  more?: (store: Store) => Promise<void>,
) {
  const store = await openStore(dataDir)
  try {
    await ensureOwner(store, baseUrl, Date.now())
    await writeTurtle(store, baseUrl, containerPath, '')
    await writeTurtle(store, baseUrl, `${containerPath}.acl`, publicAcl(baseUrl + containerPath, modes))
    if (more) await more(store)
  } finally {
    await store.close()
  }
}

/** The name of member `i` of a container seeded by seedMembers. */
export const memberName = (i: number) => `m${String(i).padStart(6, '0')}.ttl`

/**
 * `n` empty RDF documents in `container` (which must exist), member `i` named memberName(i), with
 * stat:size `i` and modified `since + i` seconds. Written 500 at a time so they share synced batches
 * (group commit): 100,000 take a few seconds instead of one sync each.
 */
export async function seedMembers(store: Store, baseUrl: string, container: string, n: number, since: number) {
  for (let i = 0; i < n; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, n - i) }, (_, j) =>
        writeResource(
          store,
          baseUrl,
          container + memberName(i + j),
          { kind: 'rdf', contentType: 'text/turtle', triples: [], size: i + j },
          since + (i + j) * 1000,
        ),
      ),
    )
  }
}
