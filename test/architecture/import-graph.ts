// Reads the relative imports of every .ts file under src/ and static/ and checks them against the dependency
// rule (docs/architecture.md): each module imports only its own folder or a lower layer, never a sibling role,
// and no file reaches itself again through its imports.

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** Top to bottom; a module may import its own unit or any unit of a lower layer. */
export const LAYERS: readonly (readonly string[])[] = [
  ['main.ts', 'build-executable.ts'],
  // the build step of the dashboard's script: `bun run build:ui`, and the executable's build embeds it
  ['build-ui.ts'],
  ['cli'],
  ['server'],
  ['pod.ts'],
  // data-format migrations: they add what first start now writes to pods made before
  ['migrations'],
  ['app.ts', 'first-start.ts'],
  // the browser scripts (static/admin/*.ts, bundled for the dashboard): above the role whose pages load them
  ['static'],
  ['op', 'as', 'rs', 'admin', 'notify', 'visit', 'monitor', 'dav'],
  ['deps.ts'],
  // the one operations layer under every face: for an explicit principal, decided by policy, written by the store
  ['resources'],
  ['local-documents.ts'],
  // the pod's open notification channels: the notification role opens them, the owner's dashboard lists them
  ['channels'],
  ['policy'],
  ['auth'],
  // the ACME certificate (its records, orders, renewal): the server serves it, deps tells the dashboard its status
  ['account', 'uma', 'acme'],
  ['fetch', 'rdf', 'store'],
  ['http'],
  ['log.ts', 'config.ts', 'data-dir.ts'],
  // pure helpers with no import of the pod's own: the config's checks use them too (IP addresses)
  ['lib'],
]

/**
 * The unit of a path relative to the repository: `static` for the browser scripts; under src/, its top
 * folder, or the file itself at the top.
 */
export const unitOf = (file: string) => {
  const [top, next] = file.split('/')
  return top === 'src' ? next! : top!
}

const layerOf = (unit: string) => LAYERS.findIndex((l) => l.includes(unit))

export type Graph = Map<string, string[]>

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g

function listTs(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return listTs(p)
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : []
  })
}

/** Every module of src/ and static/, by its path relative to the repository, with the modules it imports. */
export function readGraph(rootDir: string): Graph {
  const graph: Graph = new Map()
  for (const file of [...listTs(join(rootDir, 'src')), ...listTs(join(rootDir, 'static'))]) {
    const text = readFileSync(file, 'utf8')
    const targets: string[] = []
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!
      if (!spec.endsWith('.ts')) continue // JSON contexts and other assets are data, not modules
      targets.push(relative(rootDir, resolve(dirname(file), spec)))
    }
    graph.set(relative(rootDir, file), targets)
  }
  return graph
}

const ROLES = ['op', 'as', 'rs', 'admin', 'monitor', 'dav']

/** The role whose browser half a static/ file is (`static/admin/app.ts` → `admin`), if any. */
const browserRoleOf = (file: string) => (unitOf(file) === 'static' ? file.split('/')[1] : undefined)

/**
 * Imports that point sideways between different units of one layer, upward, or out of the layers;
 * and imports into a role from outside it that pass its plugin.ts (a role is entered only there, except
 * by its own browser scripts: static/admin/ shares admin's ACL entries with the server's pages).
 */
export function ruleBreaks(graph: Graph): string[] {
  const out: string[] = []
  for (const [from, tos] of graph) {
    for (const to of tos) {
      const a = unitOf(from), b = unitOf(to)
      if (a === b) continue
      const la = layerOf(a), lb = layerOf(b)
      if (la < 0) out.push(`${from}: ${a} is in no layer`)
      else if (lb < 0) out.push(`${from} -> ${to}: ${b} is in no layer`)
      else if (lb <= la) out.push(`${from} -> ${to}: ${lb === la ? 'sideways' : 'upward'}`)
      else if (ROLES.includes(b) && to !== `src/${b}/plugin.ts` && browserRoleOf(from) !== b) out.push(`${from} -> ${to}: a role is entered only through its plugin.ts`)
    }
  }
  return out
}

/** Every import cycle between files, each reported once as a path that returns to its start. */
export function cycles(graph: Graph): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'active' | 'done'>()
  const stack: string[] = []
  const visit = (node: string) => {
    state.set(node, 'active')
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      const s = state.get(next)
      if (s === 'active') found.push([...stack.slice(stack.indexOf(next)), next])
      else if (s === undefined) visit(next)
    }
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node)
  return found
}

/** The store's functions that change pod resources (each publishes on the change feed). */
export const STORE_WRITES = ['writeResource', 'deleteResource', 'moveResource', 'trashResource', 'restoreFromTrash', 'deleteTree'] as const

const NAMED_IMPORT = /import\s*\{([^}]*)\}\s*from\s*['"](\.[^'"]+)['"]/g

/**
 * Where a face (any role, the resource server too) imports one of the store's resource writes (`file: name`):
 * the faces change resources through the operations layer (src/resources/), which decides access for a
 * principal and applies the pod's essentials first; of the roles, only it may write.
 */
export function storeWritesInFaces(rootDir: string, faces: readonly string[] = ROLES.concat('notify', 'visit')): string[] {
  const out: string[] = []
  for (const file of listTs(join(rootDir, 'src'))) {
    const from = relative(rootDir, file)
    if (!faces.includes(unitOf(from))) continue
    for (const m of readFileSync(file, 'utf8').matchAll(NAMED_IMPORT)) {
      if (unitOf(relative(rootDir, resolve(dirname(file), m[2]!))) !== 'store') continue
      const names = m[1]!.split(',').map(n => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!)
      for (const n of names) if ((STORE_WRITES as readonly string[]).includes(n)) out.push(`${from}: ${n}`)
    }
  }
  return out
}
