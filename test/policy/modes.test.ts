import { describe, expect, test } from 'bun:test'
import { HttpError } from '../../src/http/errors.ts'
import { coversModes, formatWacAllow, requiredModes, type RequestFacts } from '../../src/policy/modes.ts'
import type { AccessMode } from '../../src/policy/access-modes.ts'

const POD = 'https://pod.example'
const u = (path: string) => POD + path
const NONE = { read: false, append: false, write: false }

// Requirements as `path: modes` strings, so each table row reads like the spec table.
const show = (f: RequestFacts) => requiredModes(f).map(r => `${r.url.slice(POD.length)}: ${r.modes.join(' ')}`)

describe('WAC §5 modes per method modes required per request', () => {
  test.each<[string, RequestFacts, string[]]>([
    ['GET needs Read on the target', { method: 'GET', url: u('/a/b'), exists: true }, ['/a/b: read']],
    ['HEAD needs Read on the target', { method: 'HEAD', url: u('/a/'), exists: true }, ['/a/: read']],
    ['lower-case method names are the same method', { method: 'get', url: u('/a/b'), exists: true }, ['/a/b: read']],
    ['OPTIONS needs nothing', { method: 'OPTIONS', url: u('/a/b'), exists: true }, []],
    ['POST needs Append on the container only', { method: 'POST', url: u('/a/'), exists: true }, ['/a/: append']],
    ['PUT on an existing resource needs Write on it only', { method: 'PUT', url: u('/a/b'), exists: true }, ['/a/b: write']],
    ['PUT creating needs Write on it and Append on the parent', { method: 'PUT', url: u('/a/b'), exists: false }, ['/a/b: write', '/a/: append']],
    ['PUT creating a container needs Write on it and Append on the parent', { method: 'PUT', url: u('/a/b/'), exists: false }, ['/a/b/: write', '/a/: append']],
    [
      'PUT creating with intermediate containers: Write on each created one, Append on the first existing ancestor',
      { method: 'PUT', url: u('/a/b/c/d'), exists: false, createdContainers: [u('/a/b/c/'), u('/a/b/')] },
      ['/a/b/c/d: write', '/a/b/c/: write', '/a/b/: write', '/a/: append'],
    ],
    ['PUT creating at the root needs Append on the root', { method: 'PUT', url: u('/x'), exists: false }, ['/x: write', '/: append']],
    [
      'PATCH existing with where + inserts + deletes needs Read and Write',
      { method: 'PATCH', url: u('/a/b'), exists: true, patch: { read: true, append: true, write: true } },
      ['/a/b: read write'],
    ],
    [
      'PATCH existing with inserts only needs Append only',
      { method: 'PATCH', url: u('/a/b'), exists: true, patch: { read: false, append: true, write: false } },
      ['/a/b: append'],
    ],
    [
      'PATCH existing with where + inserts needs Read and Append',
      { method: 'PATCH', url: u('/a/b'), exists: true, patch: { read: true, append: true, write: false } },
      ['/a/b: read append'],
    ],
    [
      'PATCH with an empty patch still needs Append (no write request passes with no modes)',
      { method: 'PATCH', url: u('/a/b'), exists: true, patch: NONE },
      ['/a/b: append'],
    ],
    [
      'PATCH creating needs the patch modes on the target and Append on the parent',
      { method: 'PATCH', url: u('/a/b'), exists: false, patch: { read: false, append: true, write: false } },
      ['/a/b: append', '/a/: append'],
    ],
    [
      'PATCH creating with intermediate containers needs them like PUT',
      { method: 'PATCH', url: u('/a/b/c'), exists: false, createdContainers: [u('/a/b/')], patch: { read: false, append: true, write: false } },
      ['/a/b/c: append', '/a/b/: write', '/a/: append'],
    ],
    ['DELETE needs Write on the target and on its container (§10.13)', { method: 'DELETE', url: u('/a/b'), exists: true }, ['/a/b: write', '/a/: write']],
    [
      'DELETE of a container needs Read and Write on it (its answer tells whether it is empty) and Write on its parent',
      { method: 'DELETE', url: u('/a/b/'), exists: true },
      ['/a/b/: read write', '/a/: write'],
    ],
    [
      'DELETE of a missing document needs Read on its container too (only a reader may learn the name is free)',
      { method: 'DELETE', url: u('/a/b'), exists: false },
      ['/a/b: write', '/a/: read write'],
    ],
    [
      'DELETE of a missing container needs Read on it and on its container',
      { method: 'DELETE', url: u('/a/b/'), exists: false },
      ['/a/b/: read write', '/a/: read write'],
    ],
    ['DELETE of the root has no container to ask', { method: 'DELETE', url: u('/'), exists: true }, ['/: read write']],
  ])('%s', (_rule, facts, expected) => {
    expect(show(facts)).toEqual(expected)
  })

  test.each(['PUT', 'PATCH', 'DELETE', 'POST'])('%s on an ACL resource needs only Control on the governed resource', method => {
    const patch = { read: true, append: true, write: true }
    expect(show({ method, url: u('/a/b.acl'), exists: false, patch })).toEqual(['/a/b: control'])
    expect(show({ method, url: u('/a/.acl'), exists: true, patch })).toEqual(['/a/: control'])
    expect(show({ method, url: u('/.acl'), exists: true, patch })).toEqual(['/: control'])
  })

  test.each(['GET', 'HEAD'])('%s on an ACL resource needs Read of the ACL, which Control of the governed resource gives (wac.ts)', method => {
    expect(show({ method, url: u('/a/b.acl'), exists: true })).toEqual(['/a/b.acl: read'])
    expect(show({ method, url: u('/.acl'), exists: true })).toEqual(['/.acl: read'])
  })

  test('DELETE names the member on its container requirement (a Delete grant on the member counts there)', () => {
    expect(requiredModes({ method: 'DELETE', url: u('/a/b'), exists: true })).toEqual([
      { url: u('/a/b'), modes: ['write'] },
      { url: u('/a/'), modes: ['write'], deleting: u('/a/b') },
    ])
    expect(requiredModes({ method: 'PUT', url: u('/a/b'), exists: false }).some(r => r.deleting !== undefined)).toBe(false)
  })

  test('an ACL of an ACL is decided by the resource at the end of the chain', () => {
    expect(show({ method: 'PUT', url: u('/a/b.acl.acl'), exists: false })).toEqual(['/a/b: control'])
  })

  test('an unsupported method is 405 method_not_allowed', () => {
    let err: unknown
    try {
      requiredModes({ method: 'TRACE', url: u('/a'), exists: true })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(HttpError)
    expect((err as HttpError).status).toBe(405)
    expect((err as HttpError).code).toBe('method_not_allowed')
  })

  test('PATCH without patch modes is a server error, never an empty requirement', () => {
    expect(() => requiredModes({ method: 'PATCH', url: u('/a'), exists: true })).toThrow(HttpError)
  })
})

describe('WAC §5 Write satisfies a need for Append', () => {
  test.each<[string, AccessMode[], AccessMode[], boolean]>([
    ['Write covers Append', ['write'], ['append'], true],
    ['Append does not cover Write', ['append'], ['write'], false],
    ['Control does not cover Read', ['control'], ['read'], false],
    ['every needed mode must be present', ['read'], ['read', 'write'], false],
    ['nothing needed is covered by nothing', [], [], true],
    ['exact sets are covered', ['read', 'write', 'append'], ['read', 'write'], true],
  ])('%s', (_rule, allowed, needed, expected) => {
    expect(coversModes(new Set(allowed), needed)).toBe(expected)
  })
})

describe('WAC §6 WAC-Allow WAC-Allow', () => {
  test.each<[string, AccessMode[], AccessMode[], string]>([
    ['all modes in the canonical order', ['control', 'append', 'write', 'read'], ['read'], 'user="read write append control",public="read"'],
    ['write is reported with append', ['write'], [], 'user="write append",public=""'],
    ['append alone stays append', ['append'], ['append'], 'user="append",public="append"'],
    ['no modes give empty quoted lists', [], [], 'user="",public=""'],
    ['control alone', ['control'], [], 'user="control",public=""'],
  ])('%s', (_rule, user, pub, expected) => {
    expect(formatWacAllow(new Set(user), new Set(pub))).toBe(expected)
  })

  test('the value matches the RFC grammar of §6.5', () => {
    const v = formatWacAllow(new Set<AccessMode>(['read', 'write']), new Set<AccessMode>(['read']))
    expect(v).toMatch(/^[a-z]+="(?:(?:read|write|append|control)(?: (?:read|write|append|control))*)?"(?:,[a-z]+="[a-z ]*")*$/)
  })
})
