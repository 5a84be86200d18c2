// Resource paths: the pod's URL space below BASE, as stored keys (always starting with '/').

import { isAcl } from './acl-names.ts'

export const isContainerPath = (path: string) => path.endsWith('/')

/** Parent container of a path; undefined for the root. */
export function parentPath(path: string): string | undefined {
  if (path === '/') return undefined
  const trimmed = isContainerPath(path) ? path.slice(0, -1) : path
  return trimmed.slice(0, trimmed.lastIndexOf('/') + 1)
}

/** Every ancestor container from the root down to the direct parent. */
export function ancestorPaths(path: string): string[] {
  const out: string[] = []
  for (let p = parentPath(path); p !== undefined; p = parentPath(p)) out.unshift(p)
  return out
}

/** `/a/b` ↔ `/a/b/`: the name a resource may not share with a container (Solid Protocol §3.1). */
export const twinPath = (path: string) => (isContainerPath(path) ? path.slice(0, -1) : `${path}/`)

/** Auxiliary resources are not listed as container members. */
export const isAuxiliaryPath = isAcl
