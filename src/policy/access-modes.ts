// The WAC access modes (WAC §5 acl:Read, acl:Write, acl:Append, acl:Control).

export type AccessMode = 'read' | 'write' | 'append' | 'control'

/** Canonical order, also the order of the WAC-Allow header (WAC §6, WAC-Allow). */
export const ACCESS_MODES: readonly AccessMode[] = ['read', 'write', 'append', 'control']
