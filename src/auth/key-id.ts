// The one normal form of a key identifier, shared by the HttpSig principal and the ACL subjects it is matched to.

const DID_KEY = 'did:key:'

/**
 * did:key:X and its verification method did:key:X#X name the same key; any other key IRI (a key
 * document URL with its fragment) is kept as it is: ACLs name it exactly so.
 */
export function normalizeKeyId(key: string): string {
  if (!key.startsWith(DID_KEY)) return key
  const hash = key.indexOf('#')
  return hash < 0 ? key : key.slice(0, hash)
}
