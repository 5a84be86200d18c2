// POST /.uma/token: permission ticket + Solid-OIDC ID token + DPoP proof → UMA access token (UMA Grant §3.3).

import { jsonResponse } from '../http/json-response.ts'
import type { Deps } from '../deps.ts'
import { badRequest, HttpError } from '../http/errors.ts'
import { AS_PATHS } from '../http/pod-paths.ts'
import { singleValuedForm } from '../http/oauth-form.ts'
import { verifyDpopProof } from '../auth/dpop.ts'
import { checkJti, jtiExpiry } from '../auth/dpop-replay.ts'
import { decodeIdToken, needInfo, verifyIdToken, type VerifiedIdToken } from '../auth/id-token.ts'
import { isLiveAppSession } from '../account/app-sessions.ts'
import type { Principal } from '../auth/principal.ts'
import type { UmaPermission } from '../uma/permission.ts'
import { signUmaAccessToken, UMA_TOKEN_TTL_S } from './uma-access-token.ts'
import { coversModes } from '../policy/modes.ts'
import type { AccessMode } from '../policy/access-modes.ts'
import { log } from '../log.ts'
import { ACCEPTED_CLAIM_TOKEN_FORMATS, REQUIRED_CLAIMS, UMA_GRANT_TYPE } from './model.ts'

/** The tickets, signing keys and issuer resolvers (with their caches) are the ones the resource server uses. */
export type AsDeps = Pick<
  Deps,
  'cfg' | 'store' | 'now' | 'tickets' | 'signingKeys' | 'getIssuerKeys' | 'getWebIdIssuers' | 'tokenEndpointReplay' | 'decider' | 'revocations'
>

export interface UmaTokenRequest {
  readonly contentType: string | null
  /** The parsed form: a repeated name arrives as an array. */
  readonly form: Record<string, unknown>
  readonly dpop: string | null
  /** The browser app's Origin, for ACL rules with acl:origin. */
  readonly origin: string | undefined
}

// UMA Grant §3.3.6: ticket faults are the client's to fix by asking the resource again
const badTicket = () => new HttpError(400, 'invalid_grant', 'the ticket is unknown, expired or already used; request the resource again for a fresh ticket')

export function makeUmaTokenEndpoint(deps: AsDeps) {
  const { cfg, tickets } = deps
  // RFC 9449 §11.1: one replay memory for both token endpoints; entries are scoped by htu
  const replay = deps.tokenEndpointReplay
  const htu = cfg.baseUrl + AS_PATHS.token

  /** Solid-OIDC Primer request flow, step 13: the pod's one access decision (WAC ∪ grants), the one the resource server enforces. */
  async function refusal(principal: Principal, p: UmaPermission, origin: string | undefined): Promise<string | undefined> {
    const d = await deps.decider.decide(principal, p.resource, origin)
    if (coversModes(d.modes, p.modes as AccessMode[])) return undefined
    // The owner's own app, limited to some folders: the rules alone would not say why
    return d.outsideAppScope ? `; the owner allowed this app only ${d.outsideAppScope.allowed}` : ''
  }

  /** UMA Grant §3.3.6 need_info: the old ticket is spent, a fresh one for the same permissions rides along. */
  /**
   * UMA Grant §3.3.6: need_info carries a new ticket (a value other than the one sent). The sent one is
   * not spent: tickets are free to anyone the resource refuses and buy nothing without claims, so
   * spending them here would only let a stranger with no credentials fill the spent memory and the
   * store (issue 33). Only an exchange that verified an ID token spends its ticket.
   */
  async function withFreshTicket(err: HttpError, ticket: string): Promise<HttpError> {
    const held = await tickets.get(ticket)
    if (!held) return badTicket()
    const fresh = await tickets.issue(held.permissions)
    return new HttpError(403, 'need_info', err.description, { cause: err.cause, extra: { ticket: fresh, required_claims: REQUIRED_CLAIMS } })
  }

  async function liveOwnSession(who: VerifiedIdToken, now: number): Promise<string> {
    if (who.sid === undefined) throw needInfo('the ID token of this pod names no sid (app session); sign in again for a fresh one')
    if (!(await isLiveAppSession(deps.store, deps.revocations, { sid: who.sid, webid: who.webid, clientId: who.clientId }, now))) {
      log.info('uma.session_ended', { clientId: who.clientId })
      throw needInfo("the ID token's app session has ended (signed out, revoked, or a new password); sign in again")
    }
    return who.sid
  }

  return async function exchangeTicket(r: UmaTokenRequest): Promise<Response> {
    const now = deps.now()
    const form = singleValuedForm(r.contentType, r.form)
    if (form.grant_type === undefined) throw badRequest(`grant_type is required: ${UMA_GRANT_TYPE}`)
    if (form.grant_type !== UMA_GRANT_TYPE) throw new HttpError(400, 'unsupported_grant_type', `grant_type must be ${UMA_GRANT_TYPE}`)
    const ticket = form.ticket
    if (ticket === undefined) throw badRequest('ticket is required: the value of the UMA challenge the resource server sent')
    // The ticket first (its faults are invalid_grant whatever else is wrong)
    const held = await tickets.get(ticket)
    if (!held) throw badTicket()
    // UMA Grant §3.3.1: claim_token and claim_token_format come together; only the ID-token format is understood
    if (form.claim_token !== undefined && form.claim_token_format === undefined)
      throw badRequest(`claim_token_format is required with claim_token: ${ACCEPTED_CLAIM_TOKEN_FORMATS[0]}`)
    if (form.claim_token_format !== undefined && !ACCEPTED_CLAIM_TOKEN_FORMATS.includes(form.claim_token_format)) {
      throw badRequest(`claim_token_format must be ${ACCEPTED_CLAIM_TOKEN_FORMATS[0]} (a Solid-OIDC ID token)`)
    }
    // RFC 9449 §11.1: a proof is used once. Taken before the ID token is checked (a concurrent replay
    // is refused while the first request runs) and given back when the exchange fails, as at the OP's
    // token endpoint: refused requests take no room, and a client may retry with its proof.
    let taken: { jkt: string; jti: string; htu: string } | undefined
    try {
      // Solid-OIDC Primer request flow: step 5, then 6–7a (the proof), 6.1 (jti replay), 7b–12 (the ID token against its issuer)
      const idToken = decodeIdToken(form.claim_token, now)
      const proof = await verifyDpopProof({ header: r.dpop, method: 'POST', url: htu, now, status: 400 })
      // grouped by the claimed issuer (checked just below; a failed exchange gives its room back)
      const claimedIss = typeof idToken.claims.iss === 'string' ? idToken.claims.iss : ''
      checkJti(
        replay.remember(proof.jkt, proof.jti, proof.htu, jtiExpiry(proof.iat), now, claimedIss),
        () => new HttpError(400, 'invalid_dpop_proof', 'the proof jti was already used; make a new proof for every request'),
      )
      taken = { jkt: proof.jkt, jti: proof.jti, htu: proof.htu }
      const who = await verifyIdToken({ idToken, proof, now, getIssuerKeys: deps.getIssuerKeys, getWebIdIssuers: deps.getWebIdIssuers })
      // Our own ID tokens are the owner's, given to an app: honoured only while that app's session lives,
      // so signing the app out, revoking it or a new password ends what its ID token can buy here too
      const ownSid = who.issuer === cfg.baseUrl ? await liveOwnSession(who, now) : undefined
      // Solid-OIDC Primer request flow, step 13: the resource server's decision for that WebID and app, on every permission of the ticket
      const principal: Principal = { webid: who.webid, clientId: who.clientId, issuer: who.issuer, keys: [], scheme: 'DPoP' }
      let refused: string | undefined
      for (const p of held.permissions) if ((refused = await refusal(principal, p, r.origin)) !== undefined) break
      const spent = await tickets.consume(ticket)
      if (!spent) throw badTicket()
      if (refused !== undefined) {
        log.info('uma.denied', { webid: who.webid, clientId: who.clientId })
        throw new HttpError(403, 'request_denied', `${who.webid} is not allowed ${describe(held.permissions)} under this pod's access rules${refused}`)
      }
      const key = await deps.signingKeys.current(now)
      const accessToken = await signUmaAccessToken(key, {
        issuer: cfg.baseUrl,
        webid: who.webid,
        clientId: who.clientId,
        webidIssuer: who.issuer,
        permissions: held.permissions,
        jkt: proof.jkt,
        now,
        ...(ownSid !== undefined ? { sid: ownSid } : {}),
      })
      log.info('uma.token_issued', { webid: who.webid, clientId: who.clientId, jkt: proof.jkt })
      const body = { access_token: accessToken, token_type: cfg.umaTokenType === 'dpop' ? 'DPoP' : 'Bearer', expires_in: UMA_TOKEN_TTL_S }
      // RFC 6749 §5.1: never cached
      return jsonResponse(body, { headers: { pragma: 'no-cache' } })
    } catch (err) {
      if (taken) replay.release(taken.jkt, taken.jti, taken.htu, now)
      throw err instanceof HttpError && err.code === 'need_info' ? await withFreshTicket(err, ticket) : err
    }
  }
}

const describe = (permissions: readonly UmaPermission[]) =>
  permissions.map(p => `${p.modes.join(' and ')} access to ${new URL(p.resource).pathname}`).join(', ')
