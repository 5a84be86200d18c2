// The project's documentation, as the tests read it: README.md (the quick start) and every page under
// docs/ (one task each). A test that checks a command, a script or a configuration "in the
// documentation" reads it here, so a section can move between pages without the test losing it.

import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

export const ROOT = join(import.meta.dir, '..')

/** README.md, then docs/*.md in name order, as paths relative to the checkout. */
export const DOCUMENTATION_FILES: readonly string[] = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter(f => f.endsWith('.md'))
    .sort()
    .map(f => `docs/${f}`),
]

/** Each documentation file's text, by its path relative to the checkout. */
export function documentationPages(): Map<string, string> {
  return new Map(DOCUMENTATION_FILES.map(f => [f, readFileSync(join(ROOT, f), 'utf8')]))
}

/** All of the documentation as one text: the files one after another, each ending in a newline. */
export function documentation(): string {
  return [...documentationPages().values()].map(t => (t.endsWith('\n') ? t : `${t}\n`)).join('\n')
}
