// What a share link allows, as the decider answers it (policy/link-access.ts): the link's path and, for a folder,
// what is under it; nothing beside or above; never an ACL; Append only on a file drop's folder itself.

import { describe, expect, test } from 'bun:test'
import { decideForLink, linkModes } from '../../src/policy/link-access.ts'
import type { LinkScope } from '../../src/account/share-links.ts'

const folder = (allows: LinkScope['allows']): LinkScope => ({ id: 'link-x', path: '/photos/', allows })
const modes = (link: LinkScope, path: string) => [...linkModes(link, path)].sort()

describe('linkModes', () => {
  test('a read link to a folder: Read on it and at any depth under it, nothing beside or above', () => {
    const l = folder('read')
    expect(modes(l, '/photos/')).toEqual(['read'])
    expect(modes(l, '/photos/a%20b.jpg')).toEqual(['read'])
    expect(modes(l, '/photos/sub/deep.txt')).toEqual(['read'])
    expect(modes(l, '/photosx/beside.txt')).toEqual([])
    expect(modes(l, '/photos')).toEqual([])
    expect(modes(l, '/')).toEqual([])
    expect(modes(l, '/other.txt')).toEqual([])
  })

  test("never an ACL, not even the folder's own", () => {
    expect(modes(folder('read-upload'), '/photos/.acl')).toEqual([])
    expect(modes(folder('read'), '/photos/a.jpg.acl')).toEqual([])
  })

  test('a file link: that file alone', () => {
    const l: LinkScope = { id: 'link-x', path: '/notes/a.txt', allows: 'read' }
    expect(modes(l, '/notes/a.txt')).toEqual(['read'])
    expect(modes(l, '/notes/a.txt2')).toEqual([])
    expect(modes(l, '/notes/')).toEqual([])
  })

  test('a file drop: Append on the folder only, no Read anywhere; view + upload: both on the folder, Read inside', () => {
    expect(modes(folder('upload'), '/photos/')).toEqual(['append'])
    expect(modes(folder('upload'), '/photos/a.jpg')).toEqual([])
    expect(modes(folder('read-upload'), '/photos/')).toEqual(['append', 'read'])
    expect(modes(folder('read-upload'), '/photos/a.jpg')).toEqual(['read'])
  })

  test('the decision names the link; a URL of another origin gets nothing', () => {
    const d = decideForLink(folder('read'), 'https://pod.example/photos/a.jpg', 'https://pod.example')
    expect([...d.modes]).toEqual(['read'])
    expect(d.publicModes.size).toBe(0)
    expect(d.reasons[0]).toContain('share link link-x')
    expect(decideForLink(folder('read'), 'https://evil.example/photos/a.jpg', 'https://pod.example').modes.size).toBe(0)
  })
})
