// The pod's identifiers of people and apps, branded so that one is never passed where the other belongs.

export type WebId = string & { readonly brand: 'WebId' }
export type ClientId = string & { readonly brand: 'ClientId' }
