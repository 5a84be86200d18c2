// App sessions for the DPoP workloads: the owner signs an RP in over real HTTP, once per session.

import { CookieJar, newDpopKey, type DpopKey } from '../op/op-fixture.ts'
import { exchangeCode, obtainCodeOverHttp, serveClientIdDocument, type ClientIdServer, type TokenSet } from '../e2e/oidc-client.ts'
import { OWNER_PASSWORD } from '../e2e/start-server.ts'
import type { BenchContext } from './workloads.ts'

/** One app session: its own DPoP key and the tokens it holds now (the refresh token rotates). */
export interface AppSession {
  readonly key: DpopKey
  tokens: TokenSet
}

/**
 * `count` independent sessions of one RP whose Client ID Document this process serves until the
 * run ends. The first authorization logs in and consents; the others reuse that browser session.
 */
export async function openAppSessions(ctx: BenchContext, count: number): Promise<{ client: ClientIdServer; sessions: AppSession[] }> {
  const client = serveClientIdDocument('solopod bench')
  ctx.onCleanup(async () => client.stop())
  const jar = new CookieJar()
  const sessions: AppSession[] = []
  for (let i = 0; i < count; i++) {
    const code = await obtainCodeOverHttp(ctx.pod.baseUrl, client, jar, OWNER_PASSWORD)
    const key = await newDpopKey()
    sessions.push({ key, tokens: await exchangeCode(ctx.pod.baseUrl, client, key, code) })
  }
  return { client, sessions }
}

/**
 * Lends sessions one operation at a time: a refresh token rotates on use, so two requests with
 * the same session at once would look like reuse and revoke it (RFC 9700 §4.14.2).
 */
export function lendSessions(sessions: readonly AppSession[]): <T>(use: (s: AppSession) => Promise<T>) => Promise<T> {
  const idle = [...sessions]
  return async use => {
    const session = idle.pop()
    if (!session) throw new Error('no idle app session; open at least as many as the concurrency')
    try {
      return await use(session)
    } finally {
      idle.push(session)
    }
  }
}
