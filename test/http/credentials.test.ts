// RFC 9110 §11.4 credentials: token68 or auth-params, for any scheme.

import { describe, expect, test } from 'bun:test'
import { parseAuthorization } from '../../src/http/credentials.ts'
import { HttpError } from '../../src/http/errors.ts'

const parsed = (h: string) => parseAuthorization(h).map(c => ({ ...c, params: Object.fromEntries(c.params) }))

describe('RFC 9110 §11.4 Authorization', () => {
  test.each([
    ['DPoP eyJ.a.b', [{ scheme: 'dpop', token68: 'eyJ.a.b', params: {} }]],
    ['Basic YWxh==', [{ scheme: 'basic', token68: 'YWxh==', params: {} }]],
    ['HttpSig proof=sig1', [{ scheme: 'httpsig', params: { proof: 'sig1' } }]],
    ['HttpSig proof=sig1, cred="<https://a.example/card#me>"', [{ scheme: 'httpsig', params: { proof: 'sig1', cred: '<https://a.example/card#me>' } }]],
    ['httpsig Proof = sig1 ,clientUrl=true', [{ scheme: 'httpsig', params: { proof: 'sig1', clienturl: 'true' } }]],
    ['X q="a\\"b\\\\c"', [{ scheme: 'x', params: { q: 'a"b\\c' } }]],
    [
      'DPoP a, Bearer b',
      [
        { scheme: 'dpop', token68: 'a', params: {} },
        { scheme: 'bearer', token68: 'b', params: {} },
      ],
    ],
    [
      'HttpSig proof=sig1, DPoP x',
      [
        { scheme: 'httpsig', params: { proof: 'sig1' } },
        { scheme: 'dpop', token68: 'x', params: {} },
      ],
    ],
    ['', []],
  ])('%s', (header, expected) => {
    expect(parsed(header)).toEqual(expected as never)
  })
  test.each([['DPoP a b c'], ['HttpSig proof=a, proof=b'], ['HttpSig proof="unterminated'], ['=x']])('%s → 400 invalid_request', header => {
    let error: unknown
    try {
      parseAuthorization(header)
    } catch (e) {
      error = e
    }
    expect({ status: (error as HttpError).status, code: (error as HttpError).code }).toEqual({ status: 400, code: 'invalid_request' })
  })
})
