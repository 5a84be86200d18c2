// The view page's Turtle with its IRIs as links (src/admin/turtle-links.ts): the text as written, every IRI
// a link, pod IRIs into the dashboard, others with no Referer; strings, comments and odd IRIs stay escaped
// text, and nothing in the document can add markup or a script link.

import { describe, expect, test } from 'bun:test'
import { turtleWithLinks } from '../../src/admin/turtle-links.ts'

const POD = 'http://pod.test'
const DOC = `${POD}/notes/todo.ttl`
const show = (ttl: string, doc = DOC) => turtleWithLinks(ttl, doc, POD).value
/** The links of the HTML, as [href, text]. */
const links = (out: string) => [...out.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map(m => [m[1], m[2]])
/** The text a person reads: the HTML without tags, unescaped. */
const textOf = (out: string) =>
  out
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')

describe('Turtle with its IRIs as links', () => {
  const TTL = '@prefix foaf: <http://xmlns.com/foaf/0.1/>.\n<#it> foaf:name "hello"; foaf:knows <../profile/card#me>, <./>.\n'
  test('the text is kept exactly as written, prefixes included', () => {
    expect(textOf(show(TTL))).toBe(TTL)
  })
  test('pod IRIs open in the dashboard (a document in its view, a folder in Files); others are linked as they are, with no Referer', () => {
    const out = show(TTL)
    expect(links(out)).toEqual([
      ['http://xmlns.com/foaf/0.1/', '&lt;http://xmlns.com/foaf/0.1/&gt;'],
      ['/.admin/files/view?path=%2Fnotes%2Ftodo.ttl', '&lt;#it&gt;'],
      ['http://xmlns.com/foaf/0.1/name', 'foaf:name'],
      ['http://xmlns.com/foaf/0.1/knows', 'foaf:knows'],
      ['/.admin/files/view?path=%2Fprofile%2Fcard', '&lt;../profile/card#me&gt;'],
      ['/.admin/files?path=%2Fnotes%2F', '&lt;./&gt;'],
    ])
    expect(out).toContain('<a href="http://xmlns.com/foaf/0.1/name" rel="noreferrer noopener">')
    expect(out).toContain('<a href="/.admin/files/view?path=%2Fprofile%2Fcard">')
  })
  test('awkward pod names stay percent-encoded in the path asked for', () => {
    expect(links(show('<%C3%89t%C3%A9%20%26%20co%3F%23%2B.ttl> a <x>.'))[0]).toEqual([
      '/.admin/files/view?path=%2Fnotes%2F%25C3%2589t%25C3%25A9%2520%2526%2520co%253F%2523%252B.ttl',
      '&lt;%C3%89t%C3%A9%20%26%20co%3F%23%2B.ttl&gt;',
    ])
  })
  test('@base and SPARQL-style PREFIX change what relative IRIs and names mean', () => {
    const out = show('@base <https://else.example/a/>.\nPREFIX ex: <b#>\n<c> ex:d <https://else.example/e>.')
    expect(links(out).map(([href]) => href)).toEqual([
      'https://else.example/a/',
      'https://else.example/a/b#',
      'https://else.example/a/c',
      'https://else.example/a/b#d',
      'https://else.example/e',
    ])
  })
  test('strings and comments are text, whatever they contain; < > & " in them are escaped', () => {
    const ttl =
      '# see <http://evil.example/> & "x"\n<#a> <#p> "<b>\\"bold\\"</b> & <http://x.example/>", \'it\\\'s <i>\', """two\nlines ex:no "quote" <#x>""" .'
    const out = show(ttl)
    expect(textOf(out)).toBe(ttl)
    expect(links(out).map(([, t]) => t)).toEqual(['&lt;#a&gt;', '&lt;#p&gt;'])
    expect(out).not.toContain('<b>')
    expect(out).not.toContain('<i>')
    expect(out).toContain('&lt;b&gt;\\&quot;bold\\&quot;&lt;/b&gt; &amp; ')
  })
  test('nothing is injected: an IRI of another scheme, an unknown prefix, a blank node or a broken IRI are plain text; markup in an IRI is escaped', () => {
    const ttl =
      '@prefix x: <javascript:alert(1)//>.\n<javascript:alert(1)> x:y _:b0, unknown:z, <data:text/html,<script>>, <http://a.example/"onmouseover="x>, <urn:isbn:1>.'
    const out = show(ttl)
    expect(textOf(out)).toBe(ttl)
    // only `<script>` is an IRI (relative: a document "script" next to this one), and its text is escaped
    expect(links(out)).toEqual([['/.admin/files/view?path=%2Fnotes%2Fscript', '&lt;script&gt;']])
    expect(out).not.toContain('<script')
    expect(out).not.toMatch(/href="(?!\/|https?:)/)
  })
  test('an IRI with characters a URL escapes is linked escaped, its text shown as written', () => {
    const out = show('<http://a.example/q?x=1&y=2> <#p> <http://a.example/é>.')
    expect(links(out)[0]).toEqual(['http://a.example/q?x=1&amp;y=2', '&lt;http://a.example/q?x=1&amp;y=2&gt;'])
    expect(links(out)[2]).toEqual(['http://a.example/%C3%A9', '&lt;http://a.example/é&gt;'])
  })
  test('a pod under a path prefix: only IRIs under it go to the dashboard', () => {
    const out = turtleWithLinks(
      '<http://pod.test/solid/a> <http://pod.test/other> <http://pod.test/solidx>.',
      'http://pod.test/solid/doc',
      'http://pod.test/solid',
    ).value
    expect(links(out).map(([href]) => href)).toEqual(['/.admin/files/view?path=%2Fa', 'http://pod.test/other', 'http://pod.test/solidx'])
  })
})
