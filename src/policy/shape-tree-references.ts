// Shape Trees §3: `<tree> st:references [ st:referencesShapeTree <other>; st:viaPredicate <p> ]` says
// instances of <tree> link to instances of <other> through <p>; an Inherited grant follows those links.

import type { Quad } from '@rdfjs/types'

const ST = 'http://www.w3.org/ns/shapetrees#'

/**
 * The st:viaPredicate values by which `fromTree` references `toTree`, read from `fromTree`'s document.
 * References given only as st:viaShapePath name a shape path in a ShEx schema; without the schema they
 * cannot be followed, so they give nothing (deny) rather than a guess.
 */
export async function referencePredicates(fromTree: string, toTree: string, loadDocument: (url: string) => Promise<Quad[]>): Promise<string[]> {
  const hash = fromTree.indexOf('#')
  const quads = await loadDocument(hash < 0 ? fromTree : fromTree.slice(0, hash))
  const refs = quads.filter(q => q.subject.value === fromTree && q.predicate.value === `${ST}references`).map(q => q.object)
  const out: string[] = []
  for (const ref of refs) {
    const about = (p: string) => quads.filter(q => q.subject.equals(ref) && q.predicate.value === ST + p).map(q => q.object)
    if (!about('referencesShapeTree').some(t => t.value === toTree)) continue
    for (const p of about('viaPredicate')) if (p.termType === 'NamedNode') out.push(p.value)
  }
  return out
}
