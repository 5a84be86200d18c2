import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import {
  cycles,
  graphOf,
  importsIn,
  LAYERS,
  readImports,
  ruleBreaks,
  storeValuesInPages,
  storeWritesInFaces,
  type Graph,
  type Imports,
} from './import-graph.ts'

const imports = readImports(join(import.meta.dir, '..', '..'))
const graph = graphOf(imports)

describe('the dependency rule of src/ and static/', () => {
  test('the graph was read, the browser scripts included', () => {
    expect(graph.get('src/pod.ts')).toContain('src/app.ts')
    expect(graph.get('static/admin/files-upload.ts')).toContain('src/http/pod-paths.ts')
  })

  test('the layers name the state the roles share, below the verifiers', () => {
    const at = (unit: string) => LAYERS.findIndex(l => l.includes(unit))
    expect(at('account')).toBeGreaterThan(at('auth'))
    expect(at('uma')).toBeGreaterThan(at('auth'))
    expect(at('static')).toBeLessThan(at('admin'))
  })

  test('every import points down (or stays in its own folder)', () => {
    expect(ruleBreaks(graph)).toEqual([])
  })

  test('no import cycle', () => {
    expect(cycles(graph).map(c => c.join(' -> '))).toEqual([])
  })

  test("the faces change resources only through the operations layer, never with the store's writes", () => {
    const at = (unit: string) => LAYERS.findIndex(l => l.includes(unit))
    expect(at('resources')).toBeGreaterThan(at('admin'))
    expect(at('resources')).toBeLessThan(at('policy'))
    expect(storeWritesInFaces(imports)).toEqual([])
  })

  // Each line is a page (admin/, visit/) importing values of the store, with the names: read them through
  // deps.resources (or the unit deps holds for that state) instead; types and the name rules may stay.
  test('the pages take from the store only types and its name rules (paths, target, acl-names): they read through deps', () => {
    expect(storeValuesInPages(imports)).toEqual([])
  })

  test("the CLI and the verifiers never write a resource either: the owner's keys go through the layer", () => {
    expect(storeWritesInFaces(imports, ['cli', 'auth'])).toEqual([])
  })
})

describe('the checker itself', () => {
  const g = (edges: Record<string, string[]>): Graph => new Map(Object.entries(edges))

  test('reports an upward, a sideways and an unlayered import', () => {
    expect(
      ruleBreaks(
        g({
          'src/store/a.ts': ['src/auth/b.ts'],
          'src/op/x.ts': ['src/rs/y.ts'],
          'src/misc/z.ts': ['src/http/errors.ts'],
          'src/rs/ok.ts': ['src/store/a.ts', 'src/rs/y.ts'],
          'src/pod.ts': ['src/rs/local-documents.ts', 'src/app.ts'],
          'src/app.ts': ['src/rs/plugin.ts'],
          'src/account/s.ts': ['src/auth/principal.ts'],
          'src/uma/t.ts': ['src/account/ids.ts'],
        }),
      ),
    ).toEqual([
      'src/store/a.ts -> src/auth/b.ts: upward',
      'src/op/x.ts -> src/rs/y.ts: sideways',
      'src/misc/z.ts: misc is in no layer',
      'src/pod.ts -> src/rs/local-documents.ts: a role is entered only through its plugin.ts',
      'src/account/s.ts -> src/auth/principal.ts: upward',
      'src/uma/t.ts -> src/account/ids.ts: sideways',
    ])
  })

  test("a browser script reaches its own role's modules, no other role's, and nothing imports it", () => {
    expect(
      ruleBreaks(
        g({
          'static/admin/a.ts': ['src/admin/acl-entries.ts', 'src/http/pod-paths.ts', 'static/admin/b.ts'],
          'static/admin/b.ts': ['src/rs/read-resource.ts'],
          'src/admin/dashboard.ts': ['static/admin/a.ts'],
        }),
      ),
    ).toEqual([
      'static/admin/b.ts -> src/rs/read-resource.ts: a role is entered only through its plugin.ts',
      'src/admin/dashboard.ts -> static/admin/a.ts: upward',
    ])
  })

  test('reads what an import takes as values: none for types, a namespace, a default, a dynamic import', () => {
    const values = (text: string) => importsIn(text).map(i => `${i.spec}: ${i.values.join(' ')}`)
    expect(
      values(`import type { A } from './a.ts'
import { type B, c, d as e } from './b.ts'
import {
  f, // why
  type G,
} from './c.ts'
import * as h from './d.ts'
import I, { j } from './e.ts'
export { k } from './f.ts'
export type { L } from './g.ts'
export * from './h.ts'
const m = () => import('./i.ts')
type N = typeof import('./j.ts')
import data from './k.json'`),
    ).toEqual(['./a.ts: ', './b.ts: c d', './c.ts: f', './d.ts: *', './e.ts: default j', './f.ts: k', './g.ts: ', './h.ts: *', './i.ts: *'])
  })

  test("a page importing a store function is refused; types, the name rules and other layers' imports are not", () => {
    const imports: Imports = new Map([
      [
        'src/admin/a.ts',
        [
          { to: 'src/store/resources.ts', values: ['getMeta'] },
          { to: 'src/store/resource-meta.ts', values: [] },
          { to: 'src/store/paths.ts', values: ['parentPath'] },
        ],
      ],
      [
        'src/visit/b.ts',
        [
          { to: 'src/store/trash.ts', values: ['TRASH_KEEP_MS', 'readTrash'] },
          { to: 'src/store/target.ts', values: ['podPathOf'] },
          { to: 'src/resources/trash-listing.ts', values: ['TRASH_KEEP_MS'] },
        ],
      ],
      [
        'src/admin/c.ts',
        [
          { to: 'src/store/container-members.ts', values: ['*'] },
          { to: 'src/store/acl-names.ts', values: ['aclOf'] },
        ],
      ],
      ['src/rs/d.ts', [{ to: 'src/store/resources.ts', values: ['getMeta'] }]],
      ['src/resources/e.ts', [{ to: 'src/store/trash.ts', values: ['readTrash'] }]],
    ])
    expect(storeValuesInPages(imports)).toEqual([
      'src/admin/a.ts -> src/store/resources.ts: getMeta',
      'src/visit/b.ts -> src/store/trash.ts: TRASH_KEEP_MS, readTrash',
      'src/admin/c.ts -> src/store/container-members.ts: *',
    ])
  })

  test("a face importing one of the store's writes is refused, a type of the same module is not", () => {
    expect(
      storeWritesInFaces(
        new Map([
          ['src/admin/a.ts', [{ to: 'src/store/resources.ts', values: ['writeResource', 'getMeta'] }]],
          ['src/notify/b.ts', [{ to: 'src/store/trash.ts', values: [] }]],
          ['src/resources/c.ts', [{ to: 'src/store/move-resource.ts', values: ['moveResource'] }]],
        ]),
      ),
    ).toEqual(['src/admin/a.ts: writeResource'])
  })

  test('reports a cycle inside one folder', () => {
    expect(cycles(g({ 'src/rdf/a.ts': ['src/rdf/b.ts'], 'src/rdf/b.ts': ['src/rdf/c.ts'], 'src/rdf/c.ts': ['src/rdf/a.ts'] }))).toEqual([
      ['src/rdf/a.ts', 'src/rdf/b.ts', 'src/rdf/c.ts', 'src/rdf/a.ts'],
    ])
  })
})
