// The base URL a data directory was created for: its IRIs, the owner's WebID and the issuer depend on it.

import type { Store } from './open-store.ts'

const BASE_URL_KEY = 'base-url'

export const getRecordedBaseUrl = (store: Store) => store.system.get(BASE_URL_KEY) as Promise<string | undefined>
export const recordBaseUrl = (store: Store, baseUrl: string) => store.system.put(BASE_URL_KEY, baseUrl, { sync: true })
