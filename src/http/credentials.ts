// The Authorization header as credentials (RFC 9110 §11.4): a scheme with a token68 or auth-params.

import { HttpError } from './errors.ts'

export interface Credential {
  /** Lower case: schemes are case-insensitive (RFC 9110 §11.1). */
  readonly scheme: string
  readonly token68?: string
  /** Parameter names lower-cased (RFC 9110 §11.2); quoted-string values unescaped. */
  readonly params: ReadonlyMap<string, string>
}

const TOKEN = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y
const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*/y
// auth-param = token BWS "=" BWS ( token / quoted-string )
const PARAM_START = /([!#$%&'*+.^_`|~0-9A-Za-z-]+)[ \t]*=[ \t]*/y
const SINGLE_TOKEN68 = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) ([A-Za-z0-9\-._~+/]+)$/
const QUOTED = /"((?:[^"\\\x00-\x08\x0a-\x1f\x7f]|\\[\t\x20-\x7e\x80-\xff])*)"/y

const malformed = (why: string) =>
  new HttpError(400, 'invalid_request', `the Authorization header is malformed: ${why}; expected "<scheme> <token>" or "<scheme> name=value, …"`)

/**
 * Every credential in the header. One Authorization field carries one credential, but repeated fields
 * arrive joined by ", ", so a comma followed by a new `scheme` (not `name=`) starts the next one.
 */
export function parseAuthorization(header: string): Credential[] {
  // What nearly every request sends (`DPoP <jwt>`, `Bearer <jwt>`): one scheme, one space, a token68 with no
  // `=` (so it cannot be read as a parameter), nothing else; the parser below gives the same credential.
  const single = SINGLE_TOKEN68.exec(header)
  if (single) return [{ scheme: single[1]!.toLowerCase(), token68: single[2]!, params: new Map() }]
  let pos = 0
  const at = (re: RegExp): RegExpExecArray | null => {
    re.lastIndex = pos
    const m = re.exec(header)
    if (m) pos = re.lastIndex
    return m
  }
  const skip = (chars: string) => {
    while (pos < header.length && chars.includes(header[pos]!)) pos++
  }
  const result: Credential[] = []
  skip(' \t,')
  while (pos < header.length) {
    const scheme = at(TOKEN)
    if (!scheme) throw malformed(`unexpected "${header[pos]}" where a scheme name belongs`)
    const params = new Map<string, string>()
    let token68: string | undefined
    const afterScheme = pos
    skip(' ')
    const spaced = pos > afterScheme
    if (spaced && pos < header.length && header[pos] !== ',') {
      const param = readParam()
      if (param) {
        addParam(params, param)
        // #auth-param: more parameters after commas, until something that is not `name=`
        for (;;) {
          const save = pos
          skip(' \t')
          if (header[pos] !== ',') {
            pos = save
            break
          }
          skip(' \t,')
          const next = readParam()
          if (!next) {
            pos = save
            break
          }
          addParam(params, next)
        }
      } else {
        const t = at(TOKEN68)
        if (!t) throw malformed(`unexpected "${header[pos]}" after the ${scheme[0]} scheme`)
        token68 = t[0]
      }
    }
    skip(' \t')
    if (pos < header.length && header[pos] !== ',') throw malformed(`unexpected "${header[pos]}" after the ${scheme[0]} credentials`)
    skip(' \t,')
    result.push({ scheme: scheme[0].toLowerCase(), ...(token68 !== undefined ? { token68 } : {}), params })
  }
  return result

  function readParam(): [string, string] | undefined {
    const start = pos
    const name = at(PARAM_START)
    if (!name) return undefined
    const quoted = at(QUOTED)
    if (quoted) return [name[1]!.toLowerCase(), quoted[1]!.replace(/\\(.)/g, '$1')]
    const token = at(TOKEN)
    if (token) return [name[1]!.toLowerCase(), token[0]]
    pos = start // `abc=` at the end is a token68 with padding, not a parameter
    return undefined
  }
}

// RFC 9110 §11.2: each parameter name occurs once per credential.
function addParam(params: Map<string, string>, [name, value]: [string, string]) {
  if (params.has(name)) throw malformed(`the parameter ${name} appears twice`)
  params.set(name, value)
}
