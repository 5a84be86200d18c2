import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { cycles, readGraph, ruleBreaks, type Graph } from './import-graph.ts'

const graph = readGraph(join(import.meta.dir, '..', '..', 'src'))

describe('the dependency rule of src/', () => {
  test('the graph was read', () => {
    expect(graph.get('pod.ts')).toContain('app.ts')
  })

  test('every import points down (or stays in its own folder)', () => {
    expect(ruleBreaks(graph)).toEqual([])
  })

  test('no import cycle', () => {
    expect(cycles(graph).map((c) => c.join(' -> '))).toEqual([])
  })
})

describe('the checker itself', () => {
  const g = (edges: Record<string, string[]>): Graph => new Map(Object.entries(edges))

  test('reports an upward, a sideways and an unlayered import', () => {
    expect(ruleBreaks(g({
      'store/a.ts': ['auth/b.ts'], 'op/x.ts': ['rs/y.ts'], 'misc/z.ts': ['http/errors.ts'], 'rs/ok.ts': ['store/a.ts', 'rs/y.ts'],
      'main.ts': ['rs/local-documents.ts', 'app.ts'], 'app.ts': ['rs/plugin.ts'],
    }))).toEqual(['store/a.ts -> auth/b.ts: upward', 'op/x.ts -> rs/y.ts: sideways', 'misc/z.ts: misc is in no layer',
      'main.ts -> rs/local-documents.ts: a role is entered only through its plugin.ts'])
  })

  test('reports a cycle inside one folder', () => {
    expect(cycles(g({ 'rdf/a.ts': ['rdf/b.ts'], 'rdf/b.ts': ['rdf/c.ts'], 'rdf/c.ts': ['rdf/a.ts'] }))).toEqual([['rdf/a.ts', 'rdf/b.ts', 'rdf/c.ts', 'rdf/a.ts']])
  })
})
