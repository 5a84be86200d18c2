// Reads the relative imports of every .ts file under src/ and static/ and checks them against the dependency
// rule (docs/architecture.md): each module imports only its own folder or a lower layer, never a sibling role,
// and no file reaches itself again through its imports.

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** Top to bottom; a module may import its own unit or any unit of a lower layer. */
export const LAYERS: readonly (readonly string[])[] = [
  ['main.ts', 'build-executable.ts'],
  // the build steps of the dashboard's script (`bun run build:ui`, which the executable's build embeds) and of the
  // libraries' bundles for starts from source (`bun run build:deps`, whose tsconfig the executable's build reads)
  ['build-ui.ts', 'build-deps.ts'],
  // classic-level's addon in a bundle: the executable's and the libraries' build steps both
  ['build-leveldb-addon.ts'],
  ['cli'],
  ['server'],
  ['pod.ts'],
  // data-format migrations: they add what first start now writes to pods made before
  ['migrations'],
  ['app.ts', 'first-start.ts'],
  // the browser scripts (static/admin/*.ts, bundled for the dashboard): above the role whose pages load them
  ['static'],
  ['op', 'as', 'rs', 'admin', 'notify', 'visit', 'links', 'monitor', 'dav'],
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

const layerOf = (unit: string) => LAYERS.findIndex(l => l.includes(unit))

export type Graph = Map<string, string[]>

/** One relative import of a module: the module it names and what it takes as values (none for `import type`). */
export interface ImportEdge {
  readonly to: string
  /** Names imported as values; `*` for a namespace, `export *` or a dynamic import, `default` for a default import. */
  readonly values: readonly string[]
}

/** Every module with its relative imports of other modules. */
export type Imports = Map<string, ImportEdge[]>

// A static import or re-export with its clause, or a dynamic import (not `typeof import(…)`, which is a type).
const IMPORT = /(?:^|\n)\s*(?:import|export)\s([^'"]*?)from\s*['"](\.[^'"]+)['"]|(?<!typeof\s*)import\(\s*['"](\.[^'"]+)['"]\s*\)/g

/** The names a clause (`type { A }`, `{ a, type B, c as d }`, `* as ns`, `Default, { e }`) takes as values. */
function valuesOf(clause: string): string[] {
  const c = clause.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '').trim()
  if (/^type\s/.test(c)) return []
  const braces = /\{([^}]*)\}/.exec(c)
  const outside = c
    .replace(/\{[^}]*\}/, '')
    .replace(/,/g, ' ')
    .trim()
  const out: string[] = outside === '' ? [] : outside.includes('*') ? ['*'] : ['default']
  for (const n of braces?.[1]!.split(',') ?? []) {
    const name = n.trim()
    if (name !== '' && !/^type\s/.test(name)) out.push(name.split(/\s+as\s+/)[0]!)
  }
  return out
}

/** The relative module imports in a module's text: each specifier, with the names it takes as values. */
export function importsIn(text: string): { spec: string; values: string[] }[] {
  const out: { spec: string; values: string[] }[] = []
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[2] ?? m[3]!
    if (!spec.endsWith('.ts')) continue // JSON contexts and other assets are data, not modules
    out.push({ spec, values: m[3] !== undefined ? ['*'] : valuesOf(m[1]!) })
  }
  return out
}

function listTs(dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return listTs(p)
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : []
  })
}

/** Every module of src/ and static/, by its path relative to the repository, with its imports. */
export function readImports(rootDir: string): Imports {
  const imports: Imports = new Map()
  for (const file of [...listTs(join(rootDir, 'src')), ...listTs(join(rootDir, 'static'))]) {
    const edges = importsIn(readFileSync(file, 'utf8')).map(({ spec, values }) => ({ to: relative(rootDir, resolve(dirname(file), spec)), values }))
    imports.set(relative(rootDir, file), edges)
  }
  return imports
}

/** Every module of src/ and static/ with the modules it imports. */
export const graphOf = (imports: Imports): Graph => new Map([...imports].map(([from, edges]) => [from, edges.map(e => e.to)]))

const ROLES = ['op', 'as', 'rs', 'admin', 'monitor', 'dav', 'links']

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
      const a = unitOf(from),
        b = unitOf(to)
      if (a === b) continue
      const la = layerOf(a),
        lb = layerOf(b)
      if (la < 0) out.push(`${from}: ${a} is in no layer`)
      else if (lb < 0) out.push(`${from} -> ${to}: ${b} is in no layer`)
      else if (lb <= la) out.push(`${from} -> ${to}: ${lb === la ? 'sideways' : 'upward'}`)
      else if (ROLES.includes(b) && to !== `src/${b}/plugin.ts` && browserRoleOf(from) !== b)
        out.push(`${from} -> ${to}: a role is entered only through its plugin.ts`)
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

/**
 * Where a face (any role, the resource server too) imports one of the store's resource writes (`file: name`):
 * the faces change resources through the operations layer (src/resources/), which decides access for a
 * principal and applies the pod's essentials first; of the roles, only it may write.
 */
export function storeWritesInFaces(imports: Imports, faces: readonly string[] = ROLES.concat('notify', 'visit')): string[] {
  const out: string[] = []
  for (const [from, edges] of imports) {
    if (!faces.includes(unitOf(from))) continue
    for (const e of edges) {
      if (unitOf(e.to) !== 'store') continue
      for (const n of e.values) if ((STORE_WRITES as readonly string[]).includes(n)) out.push(`${from}: ${n}`)
    }
  }
  return out
}

/** The pages: the owner's, the visitor's and the share links'. */
export const PAGE_UNITS = ['admin', 'visit', 'links'] as const

/**
 * The store's modules of name rules, which hold no data: a path's parent, the canonical form of a path, the ACL of a
 * resource. Pages may use them; everything else of the store they reach through deps (deps.resources, deps.backups …).
 */
export const STORE_NAME_RULES = ['src/store/paths.ts', 'src/store/target.ts', 'src/store/acl-names.ts'] as const

/**
 * Where a page imports a value of the store other than its name rules (`file -> module: names`): pages read and
 * change the pod through the operations layer (deps.resources), which decides access for the principal they act
 * for, and reach the pod's other state through the units deps holds for it; from store/ they take only types.
 */
export function storeValuesInPages(imports: Imports, pages: readonly string[] = PAGE_UNITS): string[] {
  const out: string[] = []
  for (const [from, edges] of imports) {
    if (!pages.includes(unitOf(from))) continue
    for (const e of edges) {
      if (unitOf(e.to) !== 'store' || e.values.length === 0 || (STORE_NAME_RULES as readonly string[]).includes(e.to)) continue
      out.push(`${from} -> ${e.to}: ${e.values.join(', ')}`)
    }
  }
  return out
}
