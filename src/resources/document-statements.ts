// A stored RDF document's statements as its writer gave them: the default graph's triples, and the quads of its
// own named graphs (kept among the triples as descriptions, rdf/graph-statements.ts) apart.

import type { Quad } from '@rdfjs/types'
import type { Store } from '../store/open-store.ts'
import { readTriples } from '../store/resources.ts'
import type { ResourceMeta } from '../store/resource-meta.ts'
import { readGraphStatements, type DocumentDataset } from '../rdf/graph-statements.ts'

/** Only a document that holds named graphs is searched for their descriptions: the others' triples are their default graph. */
export async function readDocumentStatements(store: Store, baseUrl: string, path: string, meta: Pick<ResourceMeta, 'namedGraphs'>): Promise<DocumentDataset> {
  return splitGraphStatements(await readTriples(store, baseUrl, path), meta)
}

/** Stored statements (the document's, or an earlier state's) split into the default graph and the named graphs. */
export const splitGraphStatements = (stored: Quad[], meta: Pick<ResourceMeta, 'namedGraphs'>): DocumentDataset =>
  meta.namedGraphs ? readGraphStatements(stored) : { triples: stored, namedGraphs: [] }
