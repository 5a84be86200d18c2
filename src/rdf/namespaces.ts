// IRIs of the vocabularies the pod speaks.

const ns = (base: string) => (local: string) => base + local

export const ACL = ns('http://www.w3.org/ns/auth/acl#')
export const FOAF = ns('http://xmlns.com/foaf/0.1/')
export const VCARD = ns('http://www.w3.org/2006/vcard/ns#')
export const LDP = ns('http://www.w3.org/ns/ldp#')
export const PIM = ns('http://www.w3.org/ns/pim/space#')
export const SOLID = ns('http://www.w3.org/ns/solid/terms#')
export const CERT = ns('http://www.w3.org/ns/auth/cert#')
export const SEC = ns('https://w3id.org/security#')
export const DCTERMS = ns('http://purl.org/dc/terms/')
export const STAT = ns('http://www.w3.org/ns/posix/stat#')
export const RDF = ns('http://www.w3.org/1999/02/22-rdf-syntax-ns#')
export const RDFS = ns('http://www.w3.org/2000/01/rdf-schema#')
export const XSD = ns('http://www.w3.org/2001/XMLSchema#')
export const INTEROP = ns('http://www.w3.org/ns/solid/interop#')
export const NOTIFY = ns('http://www.w3.org/ns/solid/notifications#')
export const AS = ns('https://www.w3.org/ns/activitystreams#')

export const PREFIXES: Record<string, string> = {
  acl: ACL(''),
  foaf: FOAF(''),
  vcard: VCARD(''),
  ldp: LDP(''),
  pim: PIM(''),
  solid: SOLID(''),
  cert: CERT(''),
  sec: SEC(''),
  dcterms: DCTERMS(''),
  stat: STAT(''),
  rdf: RDF(''),
  xsd: XSD(''),
}

export const mediaTypeClass = (type: string) => `http://www.w3.org/ns/iana/media-types/${type}#Resource`
