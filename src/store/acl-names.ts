// The one ACL naming rule (WAC §3 ACL resource discovery, our choice of names): the ACL of `r` is
// `r.acl`. It holds for stored paths and for resource URLs alike, since it only looks at the end.

export const ACL_SUFFIX = '.acl'

/** Our `rel="acl"` target: `r.acl`; for a container `/a/` it is `/a/.acl`. */
export const aclOf = (resource: string) => resource + ACL_SUFFIX

/** Any resource named `….acl` is the ACL of `…` (the RS refuses every other use of such names). */
export const isAcl = (name: string) => name.endsWith(ACL_SUFFIX)

/**
 * The (non-ACL) resource an ACL governs. Every `.acl` is stripped, so a name like `/a.acl.acl` is
 * still governed by `/a` and no chain of ACLs can escape the Control of the resource itself.
 */
export function governedBy(acl: string): string {
  let name = acl
  while (isAcl(name)) name = name.slice(0, -ACL_SUFFIX.length)
  return name
}

/** `/a.acl.acl`: an ACL of an ACL, a name the RS never stores. */
export const isAclOfAcl = (name: string) => name.endsWith(ACL_SUFFIX + ACL_SUFFIX)
