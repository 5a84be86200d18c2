// Every relative link of the documentation (README.md and docs/*.md) resolves: the file it names exists
// and the `#anchor` it names is a heading of that file, spelled as GitHub makes heading anchors. A section
// moved to another page, or a heading renamed, fails here instead of leaving a link that leads nowhere.
// README.md also leads to every page under docs/ ("Where to read on").

import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { DOCUMENTATION_FILES, ROOT, documentationPages } from './documentation.ts'

/** The text outside ``` fences, where a line starting with `#` is a heading. */
function outsideFences(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '')
}

/** The text outside ``` fences and `inline code`, where a link is a link. */
function prose(markdown: string): string {
  return outsideFences(markdown).replace(/`[^`\n]*`/g, '')
}

/**
 * GitHub's anchor of a heading: lower case, every character but letters, digits, spaces, `-` and `_`
 * dropped, each space a `-`; a repeated anchor gets `-1`, `-2` ….
 */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>()
  for (const m of outsideFences(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-')
    let anchor = base
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`
    anchors.add(anchor)
  }
  return anchors
}

/** The relative link targets of a page (no scheme, no `mailto:`), as written. */
function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^()\s]+)(?:\s+"[^"]*")?\)/g)].map(m => m[1]!).filter(target => !/^[a-z][a-z0-9+.-]*:/i.test(target))
}

/** Why `target`, linked from `file`, leads nowhere; undefined when it resolves. */
function brokenLink(file: string, target: string): string | undefined {
  const [path, anchor] = target.split('#', 2) as [string, string | undefined]
  const linked = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)))
  if (!existsSync(join(ROOT, linked))) return `${file}: ${target}: no file ${linked}`
  if (anchor === undefined) return undefined
  if (!linked.endsWith('.md')) return `${file}: ${target}: an anchor into a file that is not Markdown`
  const pages = documentationPages()
  const text = pages.get(linked)
  if (text === undefined) return `${file}: ${target}: ${linked} is not part of the documentation`
  return headingAnchors(text).has(anchor) ? undefined : `${file}: ${target}: ${linked} has no heading #${anchor}`
}

describe('documentation links', () => {
  test('headings become GitHub anchors', () => {
    expect([
      ...headingAnchors(
        '# Live updates (Solid Notifications)\n## On the open internet: what a stranger can make the pod do\n## `--port` flag\n## Backups\n## Backups\n',
      ),
    ]).toEqual(['live-updates-solid-notifications', 'on-the-open-internet-what-a-stranger-can-make-the-pod-do', '--port-flag', 'backups', 'backups-1'])
  })

  test('a link to a missing page or heading is found', () => {
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toBe('README.md: docs/no-such-page.md: no file docs/no-such-page.md')
    expect(brokenLink('docs/hosting.md', 'command-line.md#no-such-heading')).toBe(
      'docs/hosting.md: command-line.md#no-such-heading: docs/command-line.md has no heading #no-such-heading',
    )
    expect(brokenLink('docs/hosting.md', '#run-it-as-a-service')).toBeUndefined()
  })

  test('every relative link and anchor in README.md and docs/*.md resolves', () => {
    const broken = [...documentationPages()].flatMap(([file, text]) => relativeLinks(text).map(t => brokenLink(file, t))).filter(b => b !== undefined)
    expect(broken).toEqual([])
  })

  test('README.md links every page under docs/', () => {
    const linked = new Set(relativeLinks(documentationPages().get('README.md')!).map(t => t.split('#')[0]))
    expect(DOCUMENTATION_FILES.filter(f => f !== 'README.md' && !linked.has(f))).toEqual([])
  })
})
