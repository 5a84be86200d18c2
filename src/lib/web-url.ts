// Which URLs the pod's pages may show as images or links: http(s) only (no javascript:, data:, file:).

export const isWebUrl = (u: unknown): u is string => typeof u === 'string' && URL.canParse(u) && /^https?:$/.test(new URL(u).protocol)
