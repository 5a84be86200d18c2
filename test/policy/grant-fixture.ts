// A valid GrantData for an https pod, and the IRIs tests build variants from.

import type { GrantData } from '../../src/policy/grant-schema.ts'

export const POD = 'https://pod.example'
export const OWNER = `${POD}/profile/card#me`
export const BOB = 'https://bob.example/profile/card#me'
export const APP = 'https://app.example/id'
export const TREES = 'https://shapes.example/trees'
export const INTEROP = (s: string) => `http://www.w3.org/ns/solid/interop#${s}`
export const ACL = (s: string) => `http://www.w3.org/ns/auth/acl#${s}`

export function grant(over: Partial<Record<keyof GrantData, unknown>> = {}): GrantData {
  return {
    grantee: BOB,
    grantedBy: OWNER,
    dataOwner: OWNER,
    registeredShapeTree: `${TREES}#Project`,
    hasDataRegistration: `${POD}/projects/`,
    hasStorage: `${POD}/`,
    scopeOfGrant: INTEROP('AllFromRegistry'),
    accessMode: [ACL('Read')],
    ...over,
  } as GrantData
}

/** An inheriting grant of `parent` (same grantee and grantor) for the tasks registration. */
export function inheriting(over: Partial<Record<keyof GrantData, unknown>> = {}): GrantData {
  return grant({ registeredShapeTree: `${TREES}#Task`, hasDataRegistration: `${POD}/tasks/`, scopeOfGrant: INTEROP('Inherited'), ...over })
}
