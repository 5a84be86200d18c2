// RFC 9421 §2: derived components, field parameters and the base's error rows.

import { describe, expect, test } from 'bun:test'
import { parseDictionary, type InnerList } from 'structured-headers'
import { buildSignatureBase } from '../../../src/auth/httpsig/signature-base.ts'
import { HttpError } from '../../../src/http/errors.ts'

const request = (targetUri: string, headers: Record<string, string> = {}) => ({ method: 'POST', targetUri, headers: new Headers(headers) })
const input = (components: string) => [...parseDictionary(`sig1=(${components});created=1`).values()][0] as InnerList
const lines = (base: string) => base.split('\n').slice(0, -1)

describe('RFC 9421 §2.2 derived components', () => {
  const req = request('https://www.example.com:8443/path/to%20x?param=value&foo=bar')
  test.each([
    ['"@method"', 'POST'],
    ['"@target-uri"', 'https://www.example.com:8443/path/to%20x?param=value&foo=bar'],
    ['"@authority"', 'www.example.com:8443'],
    ['"@scheme"', 'https'],
    ['"@request-target"', '/path/to%20x?param=value&foo=bar'],
    ['"@path"', '/path/to%20x'],
    ['"@query"', '?param=value&foo=bar'],
    ['"@query-param";name="foo"', 'bar'],
  ])('%s', (component, value) => {
    expect(lines(buildSignatureBase(req, input(component)))).toEqual([`${component}: ${value}`])
  })
  test('§2.2.3: the default port is omitted from @authority', () => {
    expect(lines(buildSignatureBase(request('https://Example.COM:443/'), input('"@authority"')))).toEqual(['"@authority": example.com'])
  })
  test('§2.2.7: no query is "?"', () => {
    expect(lines(buildSignatureBase(request('https://example.com/p'), input('"@query"')))).toEqual(['"@query": ?'])
  })
  test('§2.2.8: names and values are form-decoded and re-encoded', () => {
    const req2 = request('https://example.com/?var=this%20is%20a%20big%0Avalue&bar=with+plus+whitespace&fa%C3%A7ade%22%3A%20=something')
    expect(lines(buildSignatureBase(req2, input('"@query-param";name="var" "@query-param";name="bar" "@query-param";name="fa%C3%A7ade%22%3A%20"')))).toEqual([
      '"@query-param";name="var": this%20is%20a%20big%0Avalue',
      '"@query-param";name="bar": with%20plus%20whitespace',
      '"@query-param";name="fa%C3%A7ade%22%3A%20": something',
    ])
  })
})

describe('RFC 9421 §2.1 HTTP fields', () => {
  const req = request('https://example.com/', {
    'example-dict': ' a=1,    b=2;x=1;y=2,   c=(a   b   c)',
    'content-digest':
      'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:,  sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:',
    'x-empty': '',
  })
  test('a field value is trimmed', () => {
    expect(lines(buildSignatureBase(req, input('"example-dict"')))).toEqual(['"example-dict": a=1,    b=2;x=1;y=2,   c=(a   b   c)'])
  })
  test('an empty field is covered as empty', () => {
    expect(lines(buildSignatureBase(req, input('"x-empty"')))).toEqual(['"x-empty": '])
  })
  test('§2.1.2 key: one Dictionary member, strictly serialised', () => {
    expect(lines(buildSignatureBase(req, input('"example-dict";key="a" "example-dict";key="b" "example-dict";key="c"')))).toEqual([
      '"example-dict";key="a": 1',
      '"example-dict";key="b": 2;x=1;y=2',
      '"example-dict";key="c": (a b c)',
    ])
  })
  test('§2.1.1 sf: a known Dictionary re-serialised strictly', () => {
    expect(lines(buildSignatureBase(req, input('"content-digest";sf')))).toEqual([
      '"content-digest";sf: sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:, sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:',
    ])
  })
  test('§2.1.3 bs: the value as a Byte Sequence', () => {
    expect(lines(buildSignatureBase(request('https://example.com/', { 'x-v': 'value, with, lots' }), input('"x-v";bs')))).toEqual([
      `"x-v";bs: :${Buffer.from('value, with, lots').toString('base64')}:`,
    ])
  })
  test('@signature-params is the serialised inner list, last', () => {
    const base = buildSignatureBase(req, input('"@method"'))
    expect(base.split('\n').at(-1)).toBe('"@signature-params": ("@method");created=1')
    expect(base.endsWith('\n')).toBe(false)
  })
})

describe('RFC 9421 §2.5 errors', () => {
  const req = request('https://example.com/?a=1&a=2', { 'example-dict': 'a=1', authorization: 'HttpSig proof=sig1', constructor: 'x' })
  test.each([
    ['a missing field', '"x-missing"', 'not in the request'],
    ['a missing Dictionary member', '"example-dict";key="zz"', 'has no member zz'],
    ['sf on a field of unknown type', '"authorization";sf', 'does not know the structured type'],
    ['sf on a field named like an object property', '"constructor";sf', 'does not know the structured type'],
    ['bs with key', '"example-dict";bs;key="a"', 'bs cannot be combined'],
    ['req in a request', '"@method";req', 'only applies to responses'],
    ['@status in a request', '"@status"', 'only applies to responses'],
    ['an unknown derived component', '"@nope"', 'unknown derived component'],
    ['a repeated query parameter', '"@query-param";name="a"', 'is repeated'],
    ['a missing query parameter', '"@query-param";name="b"', 'has no parameter b'],
    ['@query-param without name', '"@query-param"', 'needs a name'],
    ['a parameter on a derived component', '"@method";name="x"', 'does not apply'],
    ['an upper-case field name', '"Authorization"', 'must be lower case'],
    ['a component covered twice', '"@method" "@method"', 'covered twice'],
    ['@signature-params as a component', '"@signature-params"', 'must not be listed'],
  ])('%s → 401 invalid_signature', (_what, components, reason) => {
    let error: unknown
    try {
      buildSignatureBase(req, input(components))
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(HttpError)
    expect({ status: (error as HttpError).status, code: (error as HttpError).code }).toEqual({ status: 401, code: 'invalid_signature' })
    expect((error as HttpError).description).toContain(reason)
  })
})
