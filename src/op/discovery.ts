// OIDC Discovery metadata: the seed table verbatim (Solid-OIDC §5, OIDC Discovery §3) plus the Solid and DPoP members.

import { ASYMMETRIC_JWS_ALGS } from '../auth/dpop.ts'
import { SUPPORTED_SCOPES } from './model.ts'
import { OP_PATHS } from '../http/pod-paths.ts'

/** `issuer` is cfg.baseUrl byte for byte (OIDC Discovery §4.3: identical): the string every `iss` is compared with. */
export function openidConfiguration(baseUrl: string) {
  return {
    issuer: baseUrl,
    authorization_endpoint: baseUrl + OP_PATHS.authorization,
    token_endpoint: baseUrl + OP_PATHS.token,
    userinfo_endpoint: baseUrl + OP_PATHS.userinfo,
    registration_endpoint: baseUrl + OP_PATHS.registration,
    end_session_endpoint: baseUrl + OP_PATHS.endSession,
    jwks_uri: baseUrl + OP_PATHS.jwks,
    response_types_supported: ['code'],
    // Solid-OIDC: a provider that offers client credentials lists them (RFC 6749 §4.4: the owner's scripts and bots)
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    subject_types_supported: ['public'],
    claims_supported: ['sub', 'webid'],
    scopes_supported: [...SUPPORTED_SCOPES],
    // Solid-OIDC §5, OIDC Discovery §3: public (Client ID Document) clients authenticate with "none"
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
    token_endpoint_auth_signing_alg_values_supported: ['ES256'],
    request_object_signing_alg_values_supported: ['ES256'],
    id_token_signing_alg_values_supported: ['ES256'],
    // Seed value; plain is accepted only from confidential clients (RFC 7636 §4.2: S256 is mandatory to implement, plain only for confidential clients here)
    code_challenge_methods_supported: ['plain', 'S256'],
    claims_parameter_supported: false,
    request_parameter_supported: true,
    request_uri_parameter_supported: false,
    require_request_uri_registration: false,
    response_modes_supported: ['query'],
    prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    // RFC 9449 §5.1
    dpop_signing_alg_values_supported: [...ASYMMETRIC_JWS_ALGS],
    // RFC 9207 §3: iss on every authorization response
    authorization_response_iss_parameter_supported: true,
    // Solid-OIDC §3: the legacy conformance signal some clients still check
    solid_oidc_supported: 'https://solidproject.org/TR/solid-oidc',
  }
}
