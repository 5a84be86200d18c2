// The UMA authorization server's constants and discovery document.

import { ASYMMETRIC_JWS_ALGS } from '../auth/dpop.ts'
import { ID_TOKEN_FORMAT } from '../auth/id-token.ts'
import { AS_PATHS } from '../http/pod-paths.ts'

/** UMA Grant §3.3.1 grant type. */
export const UMA_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:uma-ticket'

/** We emit the http form (Solid-OIDC, UMA profile); some servers document https, so both are accepted. */
export const ACCEPTED_CLAIM_TOKEN_FORMATS: readonly string[] = [ID_TOKEN_FORMAT, ID_TOKEN_FORMAT.replace(/^http:/, 'https:')]

/** UMA Grant §3.3.6 `required_claims`: what a `need_info` answer asks for. */
export const REQUIRED_CLAIMS = [{ claim_token_format: [ID_TOKEN_FORMAT], name: 'webid', friendly_name: 'WebID' }]

/**
 * UMA Grant §2 (RFC 8414 structure). `issuer` is the base URL byte for byte: the `as_uri` of every
 * challenge and the string clients compare.
 */
export function umaConfiguration(baseUrl: string) {
  return {
    issuer: baseUrl,
    token_endpoint: baseUrl + AS_PATHS.token,
    jwks_uri: baseUrl + AS_PATHS.jwks,
    grant_types_supported: [UMA_GRANT_TYPE],
    // RFC 8414 §2 REQUIRED; the AS answers tokens only from its token endpoint
    response_types_supported: ['token'],
    token_endpoint_auth_methods_supported: ['none'],
    // Solid-OIDC "Obtaining an Access Token": the ID token is the claim token
    uma_profiles_supported: [ID_TOKEN_FORMAT],
    claim_token_profiles_supported: [ID_TOKEN_FORMAT],
    // RFC 9449 §5.1
    dpop_signing_alg_values_supported: [...ASYMMETRIC_JWS_ALGS],
  }
}
