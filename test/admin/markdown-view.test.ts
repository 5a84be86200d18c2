// Markdown rendered on a file's page: what the text holds never becomes markup or script in the owner's origin.

import { describe, expect, test } from 'bun:test'
import { renderMarkdown } from '../../src/admin/markdown-view.ts'

const render = (text: string, images = false) => renderMarkdown(text, images).html.value

describe('Markdown rendered, sanitized', () => {
  test('headings, emphasis, lists and code render', () => {
    expect(render('# Trip\n\n*sun* and **sea**\n\n- one\n- two\n\n`a<b`')).toBe(
      '<h1>Trip</h1>\n<p><em>sun</em> and <strong>sea</strong></p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<p><code>a&lt;b</code></p>\n',
    )
  })
  test.each([
    '<script>alert(1)</script>',
    'inline <script>alert(1)</script> here',
    '<img src=x onerror=alert(1)>',
    '<div onclick="alert(1)">x</div>',
    '<iframe src="https://evil.example/"></iframe>',
  ])('raw HTML %p is shown as text, no element of it survives', text => {
    const out = render(text)
    expect(out).not.toMatch(/<(script|img|div|iframe)\b/i)
    expect(out).not.toMatch(/<[^>]*onerror=/i)
    expect(out).toContain('&lt;')
  })
  test('javascript: and data: links lose their link; http(s), mailto and relative ones keep it', () => {
    expect(render('[x](javascript:alert(1)) [y](data:text/html,hi)')).toBe('<p>x y</p>\n')
    expect(render('[a](https://example.org/) [m](mailto:a@example.org) [r](notes/b.md)')).toBe(
      '<p><a href="https://example.org/" rel="noopener noreferrer nofollow">a</a> <a href="mailto:a@example.org" rel="noopener noreferrer nofollow">m</a> <a href="notes/b.md" rel="noopener noreferrer nofollow">r</a></p>\n',
    )
  })
  test('a remote image is a link until asked for; a javascript: image is its alt text', () => {
    const plain = renderMarkdown('![cat](https://img.example/cat.png "c") ![x](javascript:alert(1))', false)
    expect(plain.remoteImages).toBe(1)
    expect(plain.html.value).not.toContain('<img')
    expect(plain.html.value).toContain('<a href="https://img.example/cat.png" rel="noopener noreferrer nofollow" class="remote-image">[image: cat]</a>')
    expect(plain.html.value).not.toContain('javascript:')
    const shown = render('![cat](https://img.example/cat.png) ![q"><script>](https://img.example/"onerror="x)', true)
    expect(shown).toContain('<img src="https://img.example/cat.png" alt="cat" loading="lazy" referrerpolicy="no-referrer">')
    expect(shown).not.toMatch(/<script|" onerror=/)
  })
})
