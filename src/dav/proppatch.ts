// PROPPATCH (RFC 4918 §9.2): sets and removes dead properties, all or none, in the order the body gives them.
// Live properties are the pod's: a change of one is refused (403, cannot-modify-protected-property) and then
// nothing is changed (424 for the rest, §9.2.1). Write on the resource is the operations layer's decision.

import type { Element } from '@xmldom/xmldom'
import { actingOf, type DavContext, type DavRequest } from './dav-context.ts'
import { submittedLocksOf } from '../resources/if-header.ts'
import { badXml, childElements, davChild, isDav, readXmlBody, rootOf, xmlDom } from './xml-body.ts'
import { clark, emptyElement, multistatus, propstat, responseFor } from './multistatus.ts'
import { isLiveProperty } from './live-properties.ts'
import { MAX_PROPERTIES, MAX_PROPERTY_BYTES } from '../store/dead-properties.ts'

interface Instruction {
  readonly name: string
  readonly set?: string
}

export async function handleProppatch(ctx: DavContext, r: DavRequest): Promise<Response> {
  const { path } = r.target
  const { resources } = ctx.deps
  // Access before locks: a 423 must not tell whoever may not write it that the resource exists
  await resources.admitPropertyChange(actingOf(r), path)
  await resources.locks.admit({ ...submittedLocksOf(r.request.headers), path, changes: [path] })
  const doc = await readXmlBody(r.request)
  if (!doc) throw badXml('PROPPATCH needs a DAV:propertyupdate body')
  const instructions = instructionsOf(rootOf(doc, 'propertyupdate'))

  const next: Record<string, string> = { ...(await ctx.props.get(path)) }
  const refused = new Map<string, number>()
  for (const i of instructions) {
    if (isLiveProperty(i.name)) {
      refused.set(i.name, 403)
      continue
    }
    if (i.set === undefined) delete next[i.name]
    else next[i.name] = i.set
  }
  const names = [...new Set(instructions.map(i => i.name))]
  if (refused.size === 0 && (Object.keys(next).length > MAX_PROPERTIES || Object.values(next).reduce((n, x) => n + x.length, 0) > MAX_PROPERTY_BYTES)) {
    // RFC 4918 §9.2.1: 507, the properties would not fit
    for (const n of names) refused.set(n, 507)
  }
  if (refused.size > 0) {
    const failed = names.filter(n => refused.has(n))
    const statuses = new Map<number, string[]>()
    for (const n of failed) statuses.set(refused.get(n)!, [...(statuses.get(refused.get(n)!) ?? []), emptyElement(n)])
    const dependent = names.filter(n => !refused.has(n)).map(emptyElement)
    const body = [...statuses].map(([status, props]) => propstat(props, status)).join('') + (dependent.length > 0 ? propstat(dependent, 424) : '')
    return multistatus([responseFor(path, body)])
  }
  await ctx.props.set(path, next)
  return multistatus([responseFor(path, propstat(names.map(emptyElement), 200))])
}

/** §14.19: `set` and `remove`, each with a `D:prop` of properties, in document order. */
function instructionsOf(root: Element): Instruction[] {
  const out: Instruction[] = []
  const serializer = new (xmlDom().XMLSerializer)()
  for (const step of childElements(root)) {
    const set = isDav(step, 'set')
    if (!set && !isDav(step, 'remove')) throw badXml('DAV:propertyupdate holds only DAV:set and DAV:remove')
    const prop = davChild(step, 'prop')
    if (!prop) throw badXml(`DAV:${set ? 'set' : 'remove'} needs a DAV:prop`)
    for (const p of childElements(prop)) {
      const name = clark(p.namespaceURI, p.localName!)
      out.push(set ? { name, set: serializer.serializeToString(p) } : { name })
    }
  }
  if (out.length === 0) throw badXml('DAV:propertyupdate names no property')
  return out
}
