import { describe, expect, test } from 'bun:test'
import { FailureLimiter } from '../../src/http/rate-limit.ts'
import { escapeHtml, fillTemplate, html, renderErrorPage, SafeHtml } from '../../src/http/html-page.ts'
import { HttpError } from '../../src/http/errors.ts'
import { setLogLevel } from '../../src/log.ts'

describe('FailureLimiter', () => {
  test('allows max failures per window, then says how long to wait, per key', () => {
    const l = new FailureLimiter({ max: 2, windowMs: 60_000 })
    l.recordFailure('a', 0)
    expect(l.retryAfter('a', 0)).toBe(0)
    l.recordFailure('a', 1000)
    expect(l.retryAfter('a', 1000)).toBe(59)
    expect(l.retryAfter('b', 1000)).toBe(0)
    expect(l.retryAfter('a', 60_000)).toBe(0)
  })
  test('reset clears a key', () => {
    const l = new FailureLimiter({ max: 1, windowMs: 60_000 })
    l.recordFailure('a', 0)
    l.reset('a')
    expect(l.retryAfter('a', 0)).toBe(0)
  })
  test('memory is bounded by the key cap', () => {
    const l = new FailureLimiter({ max: 1, windowMs: 60_000 }, 10)
    for (let i = 0; i < 100; i++) l.recordFailure(`k${i}`, 0)
    expect(l.retryAfter('k0', 0)).toBe(0)
    expect(l.retryAfter('k99', 0)).toBeGreaterThan(0)
  })
})

describe('HTML pages', () => {
  test('escape every interpolated value', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
    expect(html`<p>${'<b>'}${new SafeHtml('<i>ok</i>')}${['<1>', '<2>']}</p>`.value).toBe('<p>&lt;b&gt;<i>ok</i>&lt;1&gt;&lt;2&gt;</p>')
  })
  test('templates: {{x}} escaped, {{{x}}} only SafeHtml, an unknown name is a bug', () => {
    expect(fillTemplate('{{a}}|{{{b}}}', { a: '<x>', b: new SafeHtml('<y>') })).toBe('&lt;x&gt;|<y>')
    expect(() => fillTemplate('{{{b}}}', { b: '<y>' })).toThrow()
    expect(() => fillTemplate('{{c}}', {})).toThrow()
  })
  test('the error page carries status, code and description, with no script and strict headers', async () => {
    setLogLevel('silent')
    const res = await renderErrorPage('/x', new HttpError(400, 'invalid_client', 'the <client> is unknown; expected a URL'))
    expect(res.status).toBe(400)
    const page = await res.text()
    expect(page).toContain('<code id="error">invalid_client</code>')
    expect(page).toContain('The &lt;client&gt; is unknown; expected a URL.')
    expect(page).not.toContain('<script')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('content-security-policy')).toStartWith("default-src 'none'; style-src 'sha256-")
  })
})

describe('FailureLimiter: attempts counted before they are checked', () => {
  test('begin counts up to the limit, then answers the wait without counting', () => {
    const l = new FailureLimiter({ max: 2, windowMs: 60_000 })
    expect(l.begin('a', 0)).toBe(0)
    expect(l.begin('a', 0)).toBe(0)
    expect(l.begin('a', 0)).toBe(60)
    expect(l.begin('a', 30_000)).toBe(30)
  })
  test('forgive gives back an attempt that was not a failure (a right password)', () => {
    const l = new FailureLimiter({ max: 2, windowMs: 60_000 })
    for (let i = 0; i < 5; i++) {
      expect(l.begin('a', 0)).toBe(0)
      l.forgive('a', 0)
    }
    expect(l.retryAfter('a', 0)).toBe(0)
  })
})
