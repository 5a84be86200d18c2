import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { freshnessMs, makeFetcher, type FetcherOptions, type RemoteDoc } from '../../src/fetch/guarded-fetch.ts'
import { FetchBudget } from '../../src/fetch/fetch-budget.ts'
import { HttpError } from '../../src/http/errors.ts'
import { describeCause } from '../../src/log.ts'

const TURTLE = 'text/turtle'
const PROFILE = { accept: 'text/turtle, application/ld+json;q=0.9', allowedTypes: [TURTLE, 'application/ld+json', 'application/n-triples'] }
const CARD = '<#me> a <http://xmlns.com/foaf/0.1/Person> .\n'

const hits = new Map<string, number>()
let server: ReturnType<typeof Bun.serve>
let origin: string
let clock = 1_000_000
const now = () => clock

const turtle = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { 'content-type': `${TURTLE}; charset=utf-8`, ...headers } })

function route(url: URL): Response | Promise<Response> {
  const p = url.pathname
  if (p === '/card') return turtle(CARD)
  if (p === '/max-age') return turtle(CARD, { 'cache-control': 'public, max-age=60' })
  if (p === '/max-age-0') return turtle(CARD, { 'cache-control': 'max-age=0' })
  if (p === '/max-age-huge') return turtle(CARD, { 'cache-control': 'max-age=999999' })
  if (p === '/no-store') return turtle(CARD, { 'cache-control': 'no-store' })
  if (p === '/html') return new Response('<html></html>', { headers: { 'content-type': 'text/html' } })
  if (p === '/missing') return new Response('nope', { status: 404 })
  if (p === '/latin1') return new Response(new Uint8Array([0xff, 0xfe, 0x41]), { headers: { 'content-type': TURTLE } })
  if (p === '/hang') return new Promise<Response>(() => {})
  if (p === '/big-declared') return turtle('x'.repeat(8192))
  if (p === '/big-stream') {
    const chunk = new Uint8Array(1024).fill(0x20)
    return new Response(new ReadableStream({ pull: c => c.enqueue(chunk) }), { headers: { 'content-type': TURTLE } })
  }
  const hop = Number(/^\/hops\/(\d+)$/.exec(p)?.[1] ?? -1)
  if (hop >= 0) return hop === 0 ? turtle(CARD) : Response.redirect(`${origin}/hops/${hop - 1}#frag`, 302)
  if (p === '/to-private') return Response.redirect('https://10.0.0.1/card', 302)
  if (p === '/to-metadata') return Response.redirect('http://169.254.169.254/latest/meta-data', 301)
  if (p === '/to-internal-name') return Response.redirect('https://intranet.example/card', 307)
  if (p === '/to-own') return Response.redirect('https://pod.example/profile/card', 302)
  return new Response('not found', { status: 404 })
}

beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const url = new URL(req.url)
      hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1)
      return route(url)
    },
  })
  origin = `http://localhost:${server.port}`
})
afterAll(() => server.stop(true))
beforeEach(() => {
  hits.clear()
  clock = 1_000_000
})

const hitCount = (path: string) => hits.get(path) ?? 0

const fetcher = (opts: Partial<FetcherOptions> = {}) =>
  makeFetcher({ allowInsecureLocal: true, baseUrl: 'https://pod.example', now, lookup: async () => ['127.0.0.1'], ...opts })

const HIDDEN = 'could not be fetched as a usable document'
const EXPECTED = (kib = 64) => `(expected: status 200, text/turtle or application/ld+json or application/n-triples, at most ${kib} KiB); the pod's log says why`

/**
 * A refusal whose reason is `says`. A failure of a remote fetch tells the client only that it failed (the
 * step that failed would be an oracle of what answers where): the reason is in the cause, which is logged.
 */
async function expectFailure(p: Promise<unknown>, status: number, code: string, says: string): Promise<HttpError> {
  const err = (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as HttpError
  expect(err).toBeInstanceOf(HttpError)
  expect({ status: err.status, code: err.code as string }).toEqual({ status, code })
  if (err.description.includes(HIDDEN)) {
    expect(err.description).not.toContain(says)
    expect(describeCause(err.cause)).toContain(says)
  } else expect(err.description).toContain(says)
  return err
}

describe('success', () => {
  test('fetches a document, strips the fragment and the content-type parameters', async () => {
    const doc = await fetcher()(`${origin}/card#me`, PROFILE)
    expect(doc).toEqual({ url: `${origin}/card`, contentType: TURTLE, body: CARD, fetchedAt: clock, expiresAt: clock + 5_000 })
    expect(hitCount('/card')).toBe(1)
  })

  test('resolves localhost with the real DNS lookup by default', async () => {
    const doc = await fetcher({ lookup: undefined })(`${origin}/card`, PROFILE)
    expect(doc.body).toBe(CARD)
  })

  test('tries the next checked address when one does not connect', async () => {
    const doc = await fetcher({ lookup: async () => ['127.0.0.2', '127.0.0.1'] })(`${origin}/card`, PROFILE)
    expect(doc.body).toBe(CARD)
  })

  test('follows up to 3 redirects, re-checking every hop, and reports the final URL', async () => {
    const doc = await fetcher()(`${origin}/hops/3`, PROFILE)
    expect(doc.url).toBe(`${origin}/hops/0`)
    expect(['/hops/3', '/hops/2', '/hops/1', '/hops/0'].map(hitCount)).toEqual([1, 1, 1, 1])
  })
})

describe('scheme and address refusals', () => {
  test('refuses http without allowInsecureLocal, before any connection', async () => {
    await expectFailure(fetcher({ allowInsecureLocal: false })(`${origin}/card`, PROFILE), 502, 'fetch_failed', 'expected https')
    expect(hitCount('/card')).toBe(0)
  })

  test('refuses a loopback address without allowInsecureLocal', async () => {
    const url = `https://localhost:${server.port}/card`
    const err = await expectFailure(fetcher({ allowInsecureLocal: false })(url, PROFILE), 502, 'fetch_failed', 'loopback')
    expect(err.description).toBe(`https://localhost:${server.port}/card ${HIDDEN} ${EXPECTED()}`)
  })

  test('refuses a host when any of its addresses is refused (DNS rebinding)', async () => {
    let calls = 0
    const fetchImpl = (async () => {
      calls++
      return turtle(CARD)
    }) as unknown as typeof fetch
    const doc = fetcher({ fetchImpl, lookup: async () => ['93.184.216.34', '10.0.0.1'] })('https://pod2.example/card', PROFILE)
    await expectFailure(doc, 502, 'fetch_failed', 'RFC 1918')
    expect(calls).toBe(0)
  })

  test('connects to the checked address, keeping the name in Host and TLS server name', async () => {
    const seen: { url: string; init: BunFetchRequestInit }[] = []
    const fetchImpl = (async (url: URL, init: BunFetchRequestInit) => {
      seen.push({ url: url.href, init })
      return turtle(CARD)
    }) as unknown as typeof fetch
    const doc = await fetcher({ fetchImpl, lookup: async () => ['2606:4700::1'] })('https://pod2.example/card?x=1', PROFILE)
    expect(doc.url).toBe('https://pod2.example/card?x=1')
    expect(seen).toHaveLength(1)
    expect(seen[0]!.url).toBe('https://[2606:4700::1]/card?x=1')
    expect(seen[0]!.init.headers).toEqual({ accept: PROFILE.accept, host: 'pod2.example' })
    expect(seen[0]!.init.tls).toEqual({ serverName: 'pod2.example' })
    expect(seen[0]!.init.redirect).toBe('manual')
  })

  test('refuses a URL that does not parse, without echoing it', async () => {
    const err = await expectFailure(fetcher()('not a url?token=secret', PROFILE), 502, 'fetch_refused', 'not an absolute URL')
    expect(err.description).not.toContain('secret')
  })

  test('never puts the query in the description', async () => {
    const err = await expectFailure(fetcher()('https://10.0.0.1/card?access_token=secret', PROFILE), 502, 'fetch_failed', 'RFC 1918')
    expect(err.description).toBe(`https://10.0.0.1/card ${HIDDEN} ${EXPECTED()}`)
    expect((err.cause as Error).message).toBe('https://10.0.0.1/card: host address is in a refused range: private-use (RFC 1918)')
  })
})

describe('redirects', () => {
  test('refuses a redirect to a private address', async () => {
    await expectFailure(fetcher()(`${origin}/to-private`, PROFILE), 502, 'fetch_failed', 'https://10.0.0.1/card: host address')
  })

  test('refuses a redirect to plain http on a metadata address', async () => {
    await expectFailure(fetcher()(`${origin}/to-metadata`, PROFILE), 502, 'fetch_failed', 'http://169.254.169.254/latest/meta-data')
  })

  test('refuses a redirect to a name that resolves to a private address', async () => {
    const lookup = async (host: string) => (host === 'intranet.example' ? ['192.168.1.10'] : ['127.0.0.1'])
    await expectFailure(fetcher({ lookup })(`${origin}/to-internal-name`, PROFILE), 502, 'fetch_failed', 'RFC 1918')
  })

  test('fails after more than 3 redirects', async () => {
    await expectFailure(fetcher()(`${origin}/hops/4`, PROFILE), 502, 'fetch_failed', 'more than 3 redirects')
    expect(hitCount('/hops/0')).toBe(0)
  })

  test('answers a redirect to our own origin from localLoader', async () => {
    const localLoader = async (url: string): Promise<RemoteDoc> => ({ url, contentType: TURTLE, body: 'local', fetchedAt: clock })
    const doc = await fetcher({ localLoader })(`${origin}/to-own`, PROFILE)
    expect(doc).toEqual({ url: 'https://pod.example/profile/card', contentType: TURTLE, body: 'local', fetchedAt: clock })
  })
})

describe('limits', () => {
  test('times out on a server that never answers', async () => {
    const err = await expectFailure(fetcher({ timeoutMs: 200 })(`${origin}/hang`, PROFILE), 502, 'fetch_failed', 'within 200 ms')
    expect(err.description).toBe(`${origin}/hang ${HIDDEN} ${EXPECTED()}`)
  })

  test('aborts a streamed body past maxBytes', async () => {
    await expectFailure(fetcher({ maxBytes: 4096 })(`${origin}/big-stream`, PROFILE), 502, 'fetch_failed', 'larger than 4096 bytes')
  })

  test('refuses a declared Content-Length past maxBytes', async () => {
    await expectFailure(fetcher({ maxBytes: 4096 })(`${origin}/big-declared`, PROFILE), 502, 'fetch_failed', 'larger than 4096 bytes')
  })

  test('refuses a content type outside allowedTypes', async () => {
    await expectFailure(
      fetcher()(`${origin}/html`, PROFILE),
      502,
      'fetch_failed',
      'answered text/html, expected one of text/turtle, application/ld+json, application/n-triples',
    )
  })

  test('fails on a non-200 status', async () => {
    await expectFailure(fetcher()(`${origin}/missing`, PROFILE), 502, 'fetch_failed', 'answered 404, expected 200')
  })

  test('fails on a body that is not UTF-8', async () => {
    await expectFailure(fetcher()(`${origin}/latin1`, PROFILE), 502, 'fetch_failed', 'not valid UTF-8')
  })

  test('fails on a host name that does not resolve', async () => {
    const lookup = async () => {
      throw new Error('ENOTFOUND')
    }
    await expectFailure(fetcher({ lookup })('https://nowhere.example/card', PROFILE), 502, 'fetch_failed', 'does not resolve')
  })
})

describe('how long what is read may be kept (RFC 9111 freshness with floor and ceiling)', () => {
  // The fetcher keeps no body: it says until when its callers may keep what they extracted.
  const expiresIn = async (path: string, opts: Partial<FetcherOptions> = {}) => (await fetcher(opts)(`${origin}${path}`, PROFILE)).expiresAt! - clock

  test('max-age, and every call goes to the network', async () => {
    expect(await expiresIn('/max-age')).toBe(60_000)
    expect(await expiresIn('/max-age#other-fragment')).toBe(60_000)
    expect(hitCount('/max-age')).toBe(2)
  })

  test('no-store: nothing may be kept', async () => {
    expect(await expiresIn('/no-store')).toBe(0)
  })

  test('max-age=0 gets the floor minTtlMs', async () => {
    expect(await expiresIn('/max-age-0', { minTtlMs: 5_000 })).toBe(5_000)
  })

  test('a long max-age is capped at maxTtlMs', async () => {
    expect(await expiresIn('/max-age-huge', { maxTtlMs: 60_000 })).toBe(60_000)
  })

  test('checks allowedTypes on every answer', async () => {
    await expectFailure(fetcher()(`${origin}/max-age`, { ...PROFILE, allowedTypes: ['application/json'] }), 502, 'fetch_failed', 'answered text/turtle')
  })

  test.each([
    [null, null, 5_000],
    ['no-store, max-age=60', null, 0],
    ['no-cache', null, 5_000],
    ['max-age=60', null, 60_000],
    ['Max-Age="120"', null, 120_000],
    ['max-age=60', '50', 10_000],
    ['max-age=60', '59', 5_000],
    ['max-age=99999', null, 600_000],
    ['max-age=abc', null, 5_000],
  ])('Cache-Control %p with Age %p is fresh for %p ms', (cc, age, ms) => {
    expect(freshnessMs(cc, age, 5_000, 600_000)).toBe(ms)
  })
})

describe('single-flight', () => {
  test('two concurrent requests for the same URL share one fetch', async () => {
    const fetchDoc = fetcher()
    const [a, b] = await Promise.all([fetchDoc(`${origin}/no-store`, PROFILE), fetchDoc(`${origin}/no-store`, PROFILE)])
    expect(a).toBe(b)
    expect(hitCount('/no-store')).toBe(1)
  })

  test('a different Accept is a different fetch', async () => {
    const fetchDoc = fetcher()
    await Promise.all([fetchDoc(`${origin}/no-store`, PROFILE), fetchDoc(`${origin}/no-store`, { ...PROFILE, accept: TURTLE })])
    expect(hitCount('/no-store')).toBe(2)
  })
})

describe('our own origin', () => {
  const noNetwork = {
    lookup: async (): Promise<string[]> => {
      throw new Error('lookup must not be called')
    },
    fetchImpl: (async () => {
      throw new Error('fetch must not be called')
    }) as unknown as typeof fetch,
  }

  test('is answered by localLoader with zero network', async () => {
    const asked: string[] = []
    const localLoader = async (url: string, accept: string): Promise<RemoteDoc> => {
      asked.push(`${url} ${accept}`)
      return { url, contentType: TURTLE, body: 'local', fetchedAt: clock }
    }
    const doc = await fetcher({ ...noNetwork, localLoader })('https://pod.example/profile/card#me', PROFILE)
    expect(doc.body).toBe('local')
    expect(asked).toEqual([`https://pod.example/profile/card ${PROFILE.accept}`])
  })

  test('a missing local document is a 404', async () => {
    const localLoader = async () => undefined
    await expectFailure(
      fetcher({ ...noNetwork, localLoader })('https://pod.example/nothing', PROFILE),
      404,
      'fetch_failed',
      'https://pod.example/nothing: not a public document of this pod',
    )
  })

  test('a local document of the wrong type is refused', async () => {
    const localLoader = async (url: string): Promise<RemoteDoc> => ({ url, contentType: 'text/html', body: '', fetchedAt: clock })
    await expectFailure(fetcher({ ...noNetwork, localLoader })('https://pod.example/page', PROFILE), 502, 'fetch_failed', 'answered text/html')
  })
})

describe('what a stranger can make the fetcher hold', () => {
  test('a call names its cap: a key document is refused past its own cap, whatever the fetcher default', async () => {
    await expectFailure(fetcher()(`${origin}/big-declared`, { ...PROFILE, maxBytes: 4096 }), 502, 'fetch_failed', 'larger than 4096 bytes')
    expect((await fetcher()(`${origin}/big-declared`, { ...PROFILE, maxBytes: 8192 })).body).toHaveLength(8192)
  })

  test('no body is kept: callers keep what they extracted, until expiresAt', async () => {
    const fetchDoc = fetcher()
    const doc = await fetchDoc(`${origin}/max-age`, PROFILE)
    expect(doc.expiresAt).toBe(clock + 60_000)
    await fetchDoc(`${origin}/max-age`, PROFILE)
    expect(hitCount('/max-age')).toBe(2)
  })

  test('one client gets a bounded number of network fetches per window; joined ones are free; another client is not affected', async () => {
    let client = '203.0.113.7'
    const budget = new FetchBudget({ perClientPerWindow: 3, perClientConcurrent: 4, totalConcurrent: 32, windowMs: 60_000 })
    const fetchDoc = fetcher({ budget, client: () => client })
    await Promise.all([fetchDoc(`${origin}/no-store?1`, PROFILE), fetchDoc(`${origin}/no-store?1`, PROFILE)])
    await fetchDoc(`${origin}/no-store?2`, PROFILE)
    await fetchDoc(`${origin}/max-age`, PROFILE)
    const err = await expectFailure(fetchDoc(`${origin}/no-store?3`, PROFILE), 429, 'remote_fetch_limit', 'fetch 3 remote documents')
    expect(err.headers['retry-after']).toBe('60')
    expect(hitCount('/no-store')).toBe(2)
    client = '198.51.100.9'
    await fetchDoc(`${origin}/no-store?3`, PROFILE)
    client = '203.0.113.7'
    clock += 60_000
    await fetchDoc(`${origin}/no-store?4`, PROFILE)
    expect(hitCount('/no-store')).toBe(4)
  })

  test('one client has a bounded number of fetches in flight, and so has everyone', async () => {
    const budget = new FetchBudget({ perClientPerWindow: 100, perClientConcurrent: 2, totalConcurrent: 3, windowMs: 60_000 })
    let client = 'a'
    const fetchDoc = fetcher({ budget, client: () => client, timeoutMs: 300 })
    const hanging = [fetchDoc(`${origin}/hang?1`, PROFILE), fetchDoc(`${origin}/hang?2`, PROFILE)].map(p => p.catch(() => undefined))
    await expectFailure(fetchDoc(`${origin}/hang?3`, PROFILE), 429, 'remote_fetch_limit', 'already has 2')
    client = 'b'
    const third = fetchDoc(`${origin}/hang?4`, PROFILE).catch(() => undefined)
    await expectFailure(fetchDoc(`${origin}/card`, PROFILE), 503, 'remote_fetch_busy', 'as many remote documents')
    expect(budget.active).toBe(3)
    await Promise.all([...hanging, third])
    expect(budget.active).toBe(0)
    client = 'a'
    expect((await fetchDoc(`${origin}/card`, PROFILE)).body).toBe(CARD)
  })
})
