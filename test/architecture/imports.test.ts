import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { cycles, LAYERS, readGraph, ruleBreaks, storeWritesInFaces, type Graph } from './import-graph.ts'

const graph = readGraph(join(import.meta.dir, '..', '..'))

describe('the dependency rule of src/ and static/', () => {
  test('the graph was read, the browser scripts included', () => {
    expect(graph.get('src/pod.ts')).toContain('src/app.ts')
    expect(graph.get('static/admin/files-upload.ts')).toContain('src/http/pod-paths.ts')
  })

  test('the layers name the state the roles share, below the verifiers', () => {
    const at = (unit: string) => LAYERS.findIndex((l) => l.includes(unit))
    expect(at('account')).toBeGreaterThan(at('auth'))
    expect(at('uma')).toBeGreaterThan(at('auth'))
    expect(at('static')).toBeLessThan(at('admin'))
  })

  test('every import points down (or stays in its own folder)', () => {
    expect(ruleBreaks(graph)).toEqual([])
  })

  test('no import cycle', () => {
    expect(cycles(graph).map((c) => c.join(' -> '))).toEqual([])
  })

  test("the faces change resources only through the operations layer, never with the store's writes", () => {
    const at = (unit: string) => LAYERS.findIndex((l) => l.includes(unit))
    expect(at('resources')).toBeGreaterThan(at('admin'))
    expect(at('resources')).toBeLessThan(at('policy'))
    expect(storeWritesInFaces(join(import.meta.dir, '..', '..'))).toEqual([])
  })
})

describe('the checker itself', () => {
  const g = (edges: Record<string, string[]>): Graph => new Map(Object.entries(edges))

  test('reports an upward, a sideways and an unlayered import', () => {
    expect(ruleBreaks(g({
      'src/store/a.ts': ['src/auth/b.ts'], 'src/op/x.ts': ['src/rs/y.ts'], 'src/misc/z.ts': ['src/http/errors.ts'], 'src/rs/ok.ts': ['src/store/a.ts', 'src/rs/y.ts'],
      'src/pod.ts': ['src/rs/local-documents.ts', 'src/app.ts'], 'src/app.ts': ['src/rs/plugin.ts'],
      'src/account/s.ts': ['src/auth/principal.ts'], 'src/uma/t.ts': ['src/account/ids.ts'],
    }))).toEqual(['src/store/a.ts -> src/auth/b.ts: upward', 'src/op/x.ts -> src/rs/y.ts: sideways', 'src/misc/z.ts: misc is in no layer',
      'src/pod.ts -> src/rs/local-documents.ts: a role is entered only through its plugin.ts',
      'src/account/s.ts -> src/auth/principal.ts: upward', 'src/uma/t.ts -> src/account/ids.ts: sideways'])
  })

  test("a browser script reaches its own role's modules, no other role's, and nothing imports it", () => {
    expect(ruleBreaks(g({
      'static/admin/a.ts': ['src/admin/acl-entries.ts', 'src/http/pod-paths.ts', 'static/admin/b.ts'],
      'static/admin/b.ts': ['src/rs/read-resource.ts'],
      'src/admin/dashboard.ts': ['static/admin/a.ts'],
    }))).toEqual(['static/admin/b.ts -> src/rs/read-resource.ts: a role is entered only through its plugin.ts',
      'src/admin/dashboard.ts -> static/admin/a.ts: upward'])
  })

  test('reports a cycle inside one folder', () => {
    expect(cycles(g({ 'src/rdf/a.ts': ['src/rdf/b.ts'], 'src/rdf/b.ts': ['src/rdf/c.ts'], 'src/rdf/c.ts': ['src/rdf/a.ts'] }))).toEqual([['src/rdf/a.ts', 'src/rdf/b.ts', 'src/rdf/c.ts', 'src/rdf/a.ts']])
  })
})
