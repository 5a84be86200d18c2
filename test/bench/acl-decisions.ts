// ACL-evaluation benchmark (issue 4): access decisions per second on a 5-level tree with 20 rules, in process.
// Run alone with `bun test/bench/acl-decisions.ts [--duration SECONDS]`, or call `benchAclDecisions()`.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Parser } from 'n3'
import type { Quad } from '@rdfjs/types'
import { buildConfig, ownerWebIdOf } from '../../src/config.ts'
import { makeDeps } from '../../src/deps.ts'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { writeResource } from '../../src/store/resources.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { makeAccessControl } from '../../src/policy/access-control.ts'
import { challengeLinks } from '../../src/rs/resource-headers.ts'
import { requiredModes, type ModeRequirement } from '../../src/policy/modes.ts'
import { ANONYMOUS, type Principal } from '../../src/auth/principal.ts'
import type { WebId } from '../../src/account/ids.ts'
import { HttpError } from '../../src/http/errors.ts'
import { setLogLevel } from '../../src/log.ts'

const BASE = 'http://localhost:3999'
const OWNER = ownerWebIdOf(BASE)
const ALICE = 'https://alice.example/profile#me'
const BOB = 'https://bob.example/profile#me' // in the local group
const CAROL = 'https://carol.example/profile#me' // only through an origin-restricted rule
const KEY = `${BASE}/keys/k1#k`

const PREFIXES = `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
@prefix vcard: <http://www.w3.org/2006/vcard/ns#>. @prefix cert: <http://www.w3.org/ns/auth/cert#>.\n`
const rule = (target: string, subject: string, modes: string, extra = '') =>
  `[] a acl:Authorization; ${target}; ${subject}; acl:mode ${modes}${extra ? `; ${extra}` : ''}.\n`
const both = 'acl:accessTo <./>; acl:default <./>'
const RWC = 'acl:Read, acl:Write, acl:Control'

/** 20 rules over five container levels: agent, group, class, key and origin subjects; accessTo and default. */
const ACLS: Record<string, string> = {
  '/.acl': rule(both, `acl:agent <${OWNER}>`, RWC) + rule('acl:accessTo <./>', 'acl:agentClass foaf:Agent', 'acl:Read'),
  '/l1/.acl':
    rule(both, `acl:agent <${OWNER}>`, RWC) +
    rule('acl:default <./>', `acl:agent <${ALICE}>`, 'acl:Read, acl:Write') +
    rule('acl:default <./>', 'acl:agentClass acl:AuthenticatedAgent', 'acl:Read') +
    rule('acl:accessTo <./>', 'acl:agentClass foaf:Agent', 'acl:Read'),
  '/l1/l2/l3/.acl':
    rule(both, `acl:agent <${OWNER}>`, RWC) +
    rule('acl:default <./>', 'acl:agentGroup </groups/team#g>', 'acl:Read, acl:Append') +
    rule('acl:accessTo <./>', `acl:agent <${BOB}>`, 'acl:Read') +
    rule('acl:default <./>', `acl:agent <${ALICE}>`, 'acl:Read, acl:Write') +
    rule('acl:default <./>', 'acl:agent [ cert:key </keys/k1#k> ]', 'acl:Read') +
    rule('acl:default <./>', `acl:agent <${CAROL}>`, 'acl:Read, acl:Write', 'acl:origin <https://app.example>'),
  '/l1/l2/l3/l4/.acl':
    rule(both, `acl:agent <${OWNER}>`, RWC) +
    rule('acl:default <./>', `acl:agent <${ALICE}>`, 'acl:Read') +
    rule('acl:default <./>', 'acl:agentGroup </groups/team#g>', 'acl:Write'),
  '/l1/l2/l3/l4/l5/doc.acl':
    rule('acl:accessTo <doc>', `acl:agent <${OWNER}>`, RWC) +
    rule('acl:accessTo <doc>', 'acl:agentGroup </groups/team#g>', 'acl:Read') +
    rule('acl:accessTo <doc>', `acl:agent <${ALICE}>`, 'acl:Read, acl:Write') +
    rule('acl:accessTo <doc>', 'acl:agentClass acl:AuthenticatedAgent', 'acl:Append') +
    rule('acl:accessTo <doc>', 'acl:agentClass foaf:Agent', 'acl:Read'),
}
// Counted from the documents above, so the printed figure stays true when a rule is added.
const RULE_COUNT = Object.values(ACLS).join('').split('a acl:Authorization').length - 1

const LEVELS = ['/l1/', '/l1/l2/', '/l1/l2/l3/', '/l1/l2/l3/l4/', '/l1/l2/l3/l4/l5/']
const DOCS = [...LEVELS.map(c => `${c}doc`), '/l1/l2/l3/l4/l5/other']

async function seed(store: Store, path: string, ttl: string) {
  const triples = new Parser({ baseIRI: BASE + path }).parse(PREFIXES + ttl) as Quad[]
  await writeResource(store, BASE, path, { kind: path.endsWith('/') ? 'container' : 'rdf', contentType: 'text/turtle', triples, size: ttl.length }, Date.now())
}

interface Ask {
  readonly who: Principal
  readonly url: string
  readonly reqs: readonly ModeRequirement[]
  readonly origin?: string
  readonly links: string
}

/** The mix of decisions: every level and the containers, reads, creates, deletes and ACL reads, by five requesters. */
function decisionMix(): Ask[] {
  const agent = (webid: string): Principal => ({ webid: webid as WebId, keys: [], scheme: 'DPoP' })
  const who = [agent(OWNER), agent(ALICE), agent(BOB), agent(CAROL), { keys: [KEY], scheme: 'HttpSig' } as Principal, ANONYMOUS]
  const asks: Ask[] = []
  for (const p of who) {
    for (const path of [...DOCS, ...LEVELS]) {
      const url = BASE + path
      const links = challengeLinks(BASE, path)
      asks.push({ who: p, url, links, reqs: requiredModes({ method: 'GET', url, exists: true }) })
      asks.push({ who: p, url, links, reqs: requiredModes({ method: 'GET', url, exists: true }), origin: 'https://app.example' })
    }
    for (const path of DOCS) {
      const url = BASE + path
      const links = challengeLinks(BASE, path)
      asks.push({ who: p, url, links, reqs: requiredModes({ method: 'PUT', url: `${url}-new`, exists: false }) })
      asks.push({ who: p, url, links, reqs: requiredModes({ method: 'DELETE', url, exists: true }) })
      asks.push({ who: p, url: `${url}.acl`, links, reqs: requiredModes({ method: 'GET', url: `${url}.acl`, exists: true }) })
    }
  }
  return asks
}

export interface AclBenchResult {
  readonly decisions: number
  readonly allowed: number
  readonly seconds: number
  readonly decisionsPerSecond: number
  readonly rules: number
  readonly levels: number
}

/** Builds the tree in a temporary store, warms the caches, then decides for `durationMs`; prints `acl decisions/s`. */
export async function benchAclDecisions(opts: { durationMs?: number; print?: boolean } = {}): Promise<AclBenchResult> {
  const durationMs = opts.durationMs ?? 3000
  setLogLevel('warn')
  const dir = mkdtempSync(join(tmpdir(), 'solopod-bench-acl-'))
  const cfg = buildConfig(['--data', dir, '--base-url', BASE, '--log-level', 'warn'], {})
  const store = await openStore(cfg.dataDir)
  try {
    await ensureOwner(store, BASE, Date.now())
    for (const c of LEVELS) await seed(store, c, '')
    for (const d of DOCS) await seed(store, d, '<#it> <http://purl.org/dc/terms/title> "x".')
    await seed(store, '/groups/team', `<#g> a vcard:Group; vcard:hasMember <${BOB}>, <${ALICE}>, [ cert:key </keys/k1#k> ].`)
    for (const [path, ttl] of Object.entries(ACLS)) await seed(store, path, ttl)

    const now = () => Date.now()
    const deps = makeDeps(cfg, store, now)
    const access = makeAccessControl(deps)
    const asks = decisionMix()

    const decideOne = async (a: Ask): Promise<boolean> => {
      try {
        await access.authorize(a.who, a.url, a.reqs, a.origin, a.links)
        return true
      } catch (err) {
        if (err instanceof HttpError && (err.status === 401 || err.status === 403)) return false
        throw err
      }
    }
    // Sanity: the tree decides as designed, so the benchmark measures real decisions.
    const deep = BASE + DOCS[4]!
    const read = requiredModes({ method: 'GET', url: deep, exists: true })
    const expect = async (who: Principal, want: boolean) => {
      if ((await decideOne({ who, url: deep, reqs: read, links: '' })) !== want) throw new Error('acl bench: the seeded tree decides unexpectedly')
    }
    await expect(asks.find(a => a.who.webid === BOB)!.who, true)
    await expect(asks.find(a => a.who.webid === CAROL)!.who, true)
    await expect(ANONYMOUS, true)
    for (const a of asks) await decideOne(a) // warm-up: every ACL and the group document are cached now

    let decisions = 0
    let allowed = 0
    const started = performance.now()
    const deadline = started + durationMs
    while (performance.now() < deadline) {
      for (const a of asks) if (await decideOne(a)) allowed++
      decisions += asks.length
    }
    const seconds = (performance.now() - started) / 1000
    const result = { decisions, allowed, seconds, decisionsPerSecond: decisions / seconds, rules: RULE_COUNT, levels: LEVELS.length }
    if (opts.print ?? true) {
      console.log(
        `acl decisions/s: ${Math.round(result.decisionsPerSecond)} (${decisions} decisions, ${Math.round((allowed / decisions) * 100)}% allowed, ` +
          `${RULE_COUNT} rules, ${LEVELS.length}-level tree, ${asks.length}-decision mix, ${seconds.toFixed(1)} s)`,
      )
    }
    return result
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const i = process.argv.indexOf('--duration')
  const seconds = i < 0 ? 3 : Number(process.argv[i + 1])
  if (!(seconds > 0 && seconds <= 600)) {
    console.error('usage: bun test/bench/acl-decisions.ts [--duration SECONDS]')
    process.exit(1)
  }
  await benchAclDecisions({ durationMs: seconds * 1000 })
}
