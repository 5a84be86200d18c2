// Pod paths as people read them: the dashboard's headings, breadcrumbs, notices and the visitor's pages.

import { describe, expect, test } from 'bun:test'
import { readableName, readablePath, readablePathsIn } from '../../src/lib/readable-path.ts'

describe('a pod path as people read it', () => {
  test('each segment decoded; a lone % kept as written', () => {
    expect(readablePath('/Holiday%20Photos/caf%C3%A9%20%E2%80%93%20r%C3%A9sum%C3%A9.txt')).toBe('/Holiday Photos/café – résumé.txt')
    expect(readablePath('/a%23b%3Fc%25d+e/')).toBe('/a#b?c%d+e/')
    expect(readablePath('/100%/')).toBe('/100%/')
  })
  test('the last name: a folder without its slash, a document as it is, the root empty', () => {
    expect(readableName('/trip/%C3%89t%C3%A9%20%231/')).toBe('Été #1')
    expect(readableName('/trip/a%20b.txt')).toBe('a b.txt')
    expect(readableName('/')).toBe('')
  })
})

describe('the paths in a message as people read them (refusals shown by the pages and the script)', () => {
  test('every encoded path decoded; text, URLs and paths without escapes kept', () => {
    expect(readablePathsIn('/pub/%C3%89t%C3%A9%20photos%20%231%20&%20co%3F/x.txt is not a folder: folder paths end with "/"')).toBe(
      '/pub/Été photos #1 & co?/x.txt is not a folder: folder paths end with "/"',
    )
    expect(readablePathsIn('a folder cannot be moved into itself (/a%20b/c/ is inside /a%20b/)')).toBe(
      'a folder cannot be moved into itself (/a b/c/ is inside /a b/)',
    )
    expect(readablePathsIn('there is nothing at /plain/path and 100% sure')).toBe('there is nothing at /plain/path and 100% sure')
  })
})
