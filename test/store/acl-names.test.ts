import { describe, expect, test } from 'bun:test'
import { aclOf, governedBy, isAcl, isAclOfAcl } from '../../src/store/acl-names.ts'
import { requiredModes } from '../../src/policy/modes.ts'
import { openPod } from '../rs/pod-fixture.ts'

describe('the ACL naming rule', () => {
  test.each<[string, string]>([
    ['/a/b', '/a/b.acl'],
    ['/a/', '/a/.acl'],
    ['/', '/.acl'],
    ['https://pod.example/a', 'https://pod.example/a.acl'],
  ])('the ACL of %s is %s', (r, acl) => {
    expect(aclOf(r)).toBe(acl)
    expect(isAcl(acl)).toBe(true)
    expect(governedBy(acl)).toBe(r)
  })

  test('/a.acl.acl is governed by /a itself, never by the ACL /a.acl', () => {
    expect(governedBy('/a.acl.acl')).toBe('/a')
    expect(governedBy('https://pod.example/x/.acl.acl')).toBe('https://pod.example/x/')
    expect(isAclOfAcl('/a.acl.acl')).toBe(true)
    expect(isAclOfAcl('/a.acl')).toBe(false)
    // WAC: any access to an ACL needs Control of the resource it governs
    expect(requiredModes({ method: 'GET', url: 'https://pod.example/a.acl.acl', exists: true })).toEqual([{ url: 'https://pod.example/a', modes: ['control'] }])
  })

  test('the resource server refuses to store /a.acl.acl: 400 invalid_path', async () => {
    const pod = await openPod({ publicWrite: ['/open/'] })
    try {
      const res = await pod.request('/open/a.acl.acl', { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' })
      expect(res.status).toBe(400)
      expect(await res.text()).toStartWith('invalid_path')
    } finally {
      await pod.close()
    }
  })
})
