// The dashboard written once (issue 26): the pages are the pod's, the script only enhances what they mark.
// So every `data-enhance` name a page uses has its enhancement in static/admin/app.ts and every enhancement
// there is used by a page, and the script names none of the pod's own paths itself (they come from
// src/http/pod-paths.ts, as the server's do).

import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..', '..')
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(d => d.isFile() && d.name.endsWith('.ts'))
    .map(d => join(d.parentPath, d.name))

/** The names pages give `data-enhance` (a template's literal parts: `unsaved${… ' check-turtle'}` gives both). */
function namesUsedByPages(): Set<string> {
  const names = new Set<string>()
  for (const file of filesUnder(join(ROOT, 'src'))) {
    for (const [, value] of readFileSync(file, 'utf8').matchAll(/data-enhance="([^"]*)"/g)) {
      for (const word of value!.replace(/\$\{[^}]*?'([^']*)'[^}]*\}/g, ' $1 ').split(/\s+/)) if (/^[a-z-]+$/.test(word)) names.add(word)
    }
  }
  return names
}

function enhancersOfScript(): Set<string> {
  const app = readFileSync(join(ROOT, 'static', 'admin', 'app.ts'), 'utf8')
  const registry = /const ENHANCERS[^\n]*= \{\n([\s\S]*?)\n\}/.exec(app)?.[1] ?? ''
  return new Set([...registry.matchAll(/^\s*'?([a-z-]+)'?\s*:/gm)].map(m => m[1]!))
}

describe('the one dashboard script enhances the pages, and only them', () => {
  test('every data-enhance name of a page has its enhancement, and every enhancement has a page', () => {
    const used = namesUsedByPages()
    const enhancers = enhancersOfScript()
    expect(used.size).toBeGreaterThan(5)
    expect([...used].filter(n => !enhancers.has(n))).toEqual([])
    expect([...enhancers].filter(n => !used.has(n))).toEqual([])
  })

  test("the script names none of the pod's paths itself: they come from src/http/pod-paths.ts", () => {
    const literal = /['"`]\/\.(admin|oidc|uma|well-known|visitor|uploads|notifications)\b/
    const found = filesUnder(join(ROOT, 'static', 'admin'))
      .flatMap(file =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ file, line, i })),
      )
      .filter(({ line }) => literal.test(line) && !/^\s*(\/\/|\*)/.test(line))
      .map(({ file, i }) => `${file.slice(ROOT.length + 1)}:${i + 1}`)
    expect(found).toEqual([])
  })
})
