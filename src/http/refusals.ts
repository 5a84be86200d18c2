// The catalogue of every refusal the pod makes: each error code with the statuses it is sent with and
// what it means. `HttpError` accepts only these codes, each only with its own statuses (checked by tsc),
// and `npm test` fails unless a pod under test sent every row (test/refusals-sent-report.ts), but for the few
// no request can provoke, listed with their reasons in test/refusals-never-sent.ts.

export interface RefusalEntry {
  /** The statuses this code is sent with; the first is the usual one (`refusal()` uses it). */
  readonly status: readonly [number, ...number[]]
  /** What the code means, for whoever reads a log or writes a client. */
  readonly means: string
}

export const REFUSALS = {
  // RFC 6749 §5.2 and §4.1.2.1: OAuth 2.0 token and authorization errors
  invalid_request: { status: [400], means: 'the request is malformed: a parameter, header or body is missing, repeated or invalid' },
  invalid_client: { status: [401, 400], means: 'the client is unknown or its authentication failed (RFC 6749 §5.2)' },
  invalid_grant: { status: [400], means: 'the code, refresh token, ticket or claim token is invalid, expired, used or not for this client (RFC 6749 §5.2)' },
  unsupported_grant_type: { status: [400], means: 'the token endpoint does not offer this grant type (RFC 6749 §5.2)' },
  invalid_scope: {
    status: [400],
    means: 'the requested scope is not one the pod offers (RFC 6749 §5.2); or a folder given to an app is not a folder of this pod',
  },
  access_denied: { status: [400], means: 'the owner refused the authorization request (RFC 6749 §4.1.2.1)' },
  unauthorized_client: {
    status: [400],
    means:
      "the client may not use this response type or grant type (RFC 6749 §4.1.2.1, §5.2): client_credentials is only for the owner's client credentials, and they use nothing else",
  },
  unsupported_response_type: { status: [400], means: 'only response_type=code is supported (RFC 6749 §4.1.2.1)' },
  server_error: { status: [500], means: 'the pod could not complete the request; the server log says why (RFC 6749 §4.1.2.1)' },
  temporarily_unavailable: { status: [503], means: 'the pod is too busy to take the request now; retry shortly (RFC 6749 §4.1.2.1)' },
  // OpenID Connect Core §3.1.2.6: authentication errors
  login_required: { status: [400, 401], means: 'the owner must sign in first (OIDC Core §3.1.2.6; the owner API too)' },
  consent_required: { status: [400], means: 'prompt=none was sent but the owner has not consented (OIDC Core §3.1.2.6)' },
  invalid_request_object: { status: [400], means: 'the request object is invalid (OIDC Core §3.1.2.6)' },
  request_uri_not_supported: { status: [400], means: 'request_uri is not supported (OIDC Core §3.1.2.6)' },
  registration_not_supported: { status: [400], means: 'the registration parameter is not supported (OIDC Core §3.1.2.6)' },
  invalid_redirect_uri: { status: [400], means: 'a redirect URI is not allowed (RFC 7591 §3.2.2)' },
  invalid_client_metadata: { status: [400], means: 'client metadata is invalid (RFC 7591 §3.2.2)' },
  // RFC 6750 §3.1 and RFC 9449 §7.1, §8: resource access with tokens and proofs
  invalid_token: { status: [401], means: 'the access token is missing, malformed, expired, revoked or not for this pod (RFC 6750 §3.1)' },
  insufficient_scope: { status: [403], means: 'the UMA access token does not cover this resource and these modes (RFC 6750 §3.1)' },
  invalid_dpop_proof: { status: [400, 401], means: 'the DPoP proof is missing or invalid (RFC 9449 §5, §7.1)' },
  use_dpop_nonce: { status: [400, 401], means: 'send the DPoP proof again with the nonce of the DPoP-Nonce header (RFC 9449 §8)' },
  // UMA 2.0 Grant §3.3.6: the UMA token endpoint
  need_info: { status: [403], means: 'the authorization server needs claims (an ID token) to decide the ticket (UMA Grant §3.3.6)' },
  request_denied: { status: [403], means: 'the claims were given and the rules do not allow the ticket (UMA Grant §3.3.6)' },
  // RFC 9421 with the HttpSig draft: signed requests
  invalid_signature: { status: [401], means: 'the HTTP message signature or its key could not be verified (RFC 9421 §3.2)' },
  // RFC 9110 §15.5: HTTP's own client errors, named as the status is
  not_found: { status: [404], means: 'nothing here, or nothing the requester may know of (RFC 9110 §15.5.5)' },
  link_not_found: { status: [404], means: 'a share link (/.links/TOKEN/) that does not exist or was removed by the owner' },
  link_used_up: { status: [410], means: 'a share link (/.links/TOKEN/) downloaded as many times as its owner allowed (--max-downloads)' },
  link_password_required: {
    status: [401],
    means: 'a share link with a password, opened without one: a browser gets the form, other clients send it as HTTP Basic',
  },
  link_password_wrong: { status: [401], means: 'a share link opened with a wrong password (tries are limited per link and per address)' },
  link_expiry_too_long: {
    status: [400],
    means: "a new share link asked to last longer than the owner's maximum (or to never expire under one); the description names the maximum",
  },
  link_expired: { status: [410], means: 'a share link (/.links/TOKEN/) whose expiry has passed; the owner can make a new one' },
  method_not_allowed: { status: [405], means: 'the method is not supported on this resource; Allow lists those that are (RFC 9110 §15.5.6)' },
  not_acceptable: { status: [406], means: 'no representation matches the Accept header (RFC 9110 §15.5.7)' },
  precondition_failed: { status: [412], means: 'an If-Match or If-None-Match condition failed (RFC 9110 §15.5.13)' },
  payload_too_large: { status: [413], means: 'the body is larger than the pod takes here (RFC 9110 §15.5.14)' },
  range_not_satisfiable: { status: [416], means: 'the Range asks for bytes the file does not have; Content-Range gives its length (RFC 9110 §15.5.17)' },
  insufficient_storage: { status: [507], means: "the pod's disk is too full to store this; nothing was written (RFC 4918 §11.5)" },
  blob_store_unavailable: {
    status: [503],
    means: "the object store holding the pod's files is slow or down; nothing was written, Retry-After says when to try again",
  },
  unsupported_media_type: { status: [415], means: 'the body is of a type this request does not take (RFC 9110 §15.5.16)' },
  too_many_uploads: { status: [429], means: 'the agent has the most resumable uploads in progress the pod allows; complete or cancel one first' },
  too_many_requests: { status: [429], means: 'too many requests from this address, sign-in or DPoP key; wait (RFC 6585 §4)' },
  // The resource server: Solid Protocol and Web Access Control
  unauthenticated: { status: [401], means: 'the rules allow this only to an authenticated agent (Solid Protocol §2.1, WAC §5)' },
  forbidden: { status: [403], means: "the agent's access under the rules does not cover the request (WAC §5)" },
  outside_app_scope: {
    status: [403],
    means: "the rules allow the owner this, but the owner limited this app to other folders (the dashboard's Apps and sessions page)",
  },
  reserved_path: { status: [405], means: "the path belongs to one of the pod's own endpoints, never a resource" },
  root_protected: { status: [405], means: 'the storage root and its ACL cannot be replaced or deleted (Solid Protocol §5.4)' },
  missing_content_type: { status: [400], means: 'a body needs a Content-Type (Solid Protocol §5.2)' },
  invalid_path: { status: [400], means: 'the path or Slug cannot name a resource on this pod' },
  invalid_name: { status: [400], means: "a resource name in the owner's forms is not a valid name" },
  not_a_container: { status: [400], means: 'the request needs a container (a path ending in /)' },
  invalid_page: { status: [400], means: "a container listing's page or limit is not one the pod hands out (LWS container pagination)" },
  not_a_document: { status: [400], means: 'the request needs a document, not a container' },
  not_editable: { status: [400], means: 'the document is not of a type the owner edits as text in the dashboard (Turtle, plain text, Markdown)' },
  already_exists: { status: [412, 409], means: 'something of that name exists already (409: the target of a move)' },
  nothing_selected: { status: [400], means: 'a form for the selected items came without any item ticked' },
  // RFC 7089 (Memento): the versions of a resource (docs/versions.md)
  invalid_accept_datetime: { status: [400], means: 'Accept-Datetime is not an HTTP-date such as "Tue, 20 Jun 2000 18:02:59 GMT" (RFC 7089 §2.1.1)' },
  memento_not_found: {
    status: [404],
    means: 'no state of the resource is kept from that time: before its first version, while it did not exist, or past --keep-versions-days',
  },
  too_large_for_trash: { status: [413], means: 'the folder holds more items than the trash keeps; delete it for good instead' },
  too_large_for_zip: {
    status: [413],
    means: 'the folder holds more items, or folders nested deeper, than one zip download takes; download the folders inside it one by one',
  },
  move_into_itself: { status: [400], means: 'a folder cannot be moved into itself or a folder inside it' },
  copy_into_itself: { status: [400], means: 'a folder cannot be copied into itself or a folder inside it' },
  name_conflict: { status: [409], means: 'a document and a container of the same name cannot both exist (Solid Protocol §3.1)' },
  container_not_empty: { status: [409], means: 'a container is deleted only when empty (Solid Protocol §5.4)' },
  acl_without_resource: { status: [409], means: 'an ACL is written only for a resource that exists' },
  changed_meanwhile: { status: [412], means: 'the document changed between reading and saving it; reload and try again' },
  invalid_rdf: { status: [400], means: 'the body is not valid RDF in its Content-Type' },
  invalid_syntax: { status: [400], means: 'a header or query value does not parse' },
  jsonld_context_not_allowed: { status: [400], means: 'a JSON-LD body names a remote context; only the bundled ones are read' },
  invalid_patch: { status: [422], means: 'the patch document is valid syntax but not a valid patch (Solid Protocol §5.3.1)' },
  patch_conflict: { status: [409], means: 'the patch conditions do not match the document (Solid Protocol §5.3.1)' },
  invalid_acl: { status: [422], means: 'the ACL document is not one the pod can enforce (WAC §4)' },
  protected_resource: { status: [409], means: "the write would break the owner's identity or the pod's essential documents" },
  protected_access: { status: [409], means: "the ACL would take the owner's or the public's essential access away" },
  owner_lockout: { status: [409], means: 'the ACL would lock the owner out of the storage' },
  server_managed: { status: [409], means: 'the statement is managed by the server and cannot be written (Solid Protocol §5.3)' },
  several_values: { status: [409], means: 'the profile field holds several values; edit the document itself' },
  webid_statement_required: { status: [409], means: "the owner's profile must keep its issuer and storage statements (Solid-OIDC §5, Solid Protocol §4.1)" },
  no_access_left: { status: [409], means: 'the change would leave nobody with access to the resource' },
  // Resumable uploads (IETF draft-ietf-httpbis-resumable-upload, its problem types where it has them)
  mismatching_upload_offset: {
    status: [409],
    means: "Upload-Offset is not the offset the pod holds; the answer's Upload-Offset is (problem type mismatching-upload-offset)",
  },
  completed_upload: { status: [400], means: 'the upload is complete already; nothing more can be appended (problem type completed-upload)' },
  inconsistent_upload_length: {
    status: [400],
    means: "the upload's lengths disagree, or it would go past its length (problem type inconsistent-upload-length)",
  },
  upload_not_yours: { status: [403], means: 'the upload resource was started by another agent; only that agent may append, query or cancel it' },
  upload_lost: {
    status: [404],
    means:
      "the upload's bytes are gone from the pod's object store (its multipart upload was aborted, by the bucket's lifecycle rule or by hand); the upload resource is gone with them: start the upload again",
  },
  // Solid Notifications (Protocol 0.3 and its channel types)
  invalid_subscription: {
    status: [400],
    means: 'the subscription request is not a channel this service opens: its type, topic or a feature is missing or invalid',
  },
  unsupported_notification_format: { status: [422], means: 'the channel asks (accept) for notifications in a media type the pod does not send' },
  unsafe_send_to: {
    status: [400],
    means:
      "a webhook's sendTo names a target the pod does not post to: plain http, a private, loopback or link-local address, a system port, or the pod itself",
  },
  too_many_channels: { status: [503], means: 'the pod has as many notification channels open as it keeps; retry later' },
  too_many_client_channels: {
    status: [429],
    means: 'this client (its agent, or its address when anonymous) has as many notification channels open as the pod gives one client; end one or retry later',
  },
  // Remote documents (the guarded fetcher)
  fetch_failed: { status: [502, 404], means: 'a remote document could not be fetched or read' },
  fetch_refused: { status: [502], means: 'a remote URL is not one the pod may fetch (private address, scheme, size)' },
  remote_fetch_limit: { status: [429], means: "this client's budget of remote fetches is spent for now" },
  remote_fetch_busy: { status: [503], means: 'the pod is fetching as many remote documents as it can' },
  sign_in_failed: { status: [400], means: "a visitor's sign-in with their own Solid provider could not be completed: the page says why" },
  provider_unusable: { status: [502], means: "the visitor's Solid provider (or WebID profile) could not be found or used for signing in" },
  issuer_keys_unavailable: { status: [502], means: "the token issuer's keys could not be fetched" },
  // The owner's pages and API
  webid_not_found: { status: [422], means: 'a WebID the owner shares with could not be fetched (no answer, not 200, not an RDF profile type, too large)' },
  not_a_profile: { status: [422], means: 'the document a WebID names is not a profile of it: no statement has the WebID as its subject' },
  csrf_failed: { status: [403], means: 'the CSRF token or Origin of an owner request does not match (OWASP double-submit cookie)' },
  invalid_credentials: { status: [401], means: 'the password is wrong' },
  too_many_attempts: { status: [429], means: 'too many failed sign-ins; wait before trying again' },
  setup_required: { status: [403], means: "the owner's password is not set yet; use the setup link" },
  invalid_setup_token: { status: [400], means: 'the setup link is invalid, used or expired' },
  passwords_differ: { status: [400], means: 'the two passwords differ' },
  wrong_current_password: { status: [403], means: 'the current password, typed to change it, is wrong' },
  weak_password: { status: [400], means: 'the password is too short or too common' },
  interaction_expired: { status: [400], means: 'the sign-in or consent page was open too long; start again from the app' },
  invalid_field: { status: [400], means: 'a form field is missing or invalid' },
  invalid_query: { status: [400], means: 'a query parameter of the owner API is missing or invalid' },
  invalid_search: { status: [400], means: 'a search by name holds no letter or digit, or is longer than the pod searches for' },
  confirmation_required: { status: [409, 400], means: 'the change needs to be confirmed' },
  no_file: { status: [400], means: 'the upload form has no file' },
  backup_running: { status: [409], means: 'a backup is being made already' },
  invalid_grant_data: { status: [400, 422], means: 'the access grant does not match GrantData, or cannot be granted on this pod' },
  invalid_key: { status: [400], means: 'the public key is not a JWK the pod accepts for HttpSig' },
  invalid_key_name: { status: [400], means: 'the key name cannot name a document in /keys/' },
  key_exists: { status: [409], means: 'a key document of that name exists already' },
  // WebDAV (RFC 4918): the dav role and the locks the resource server honours
  invalid_xml: { status: [400], means: 'the WebDAV request body is not well-formed XML, or not the element the method takes (RFC 4918 §8.2)' },
  propfind_finite_depth: { status: [403], means: 'PROPFIND with Depth: infinity is refused; ask folder by folder with Depth 0 or 1 (RFC 4918 §9.1)' },
  locked: { status: [423], means: 'the resource is locked and the request did not submit the lock token in its If header (RFC 4918 §11.3)' },
  lock_conflict: { status: [423], means: 'the resource holds a lock that conflicts with the one asked for (RFC 4918 §9.10.5)' },
  lock_token_mismatch: { status: [409, 400], means: 'the lock token of UNLOCK or a lock refresh names no lock of this resource (RFC 4918 §9.11.1)' },
  missing_parent: { status: [409], means: 'the folder a new folder, copy or move would go into does not exist (RFC 4918 §9.3.1, §9.8.5)' },
  destination_elsewhere: { status: [502], means: 'the Destination of a COPY or MOVE is not on this pod (RFC 4918 §9.8.5)' },
  same_destination: { status: [403], means: 'the Destination of a COPY or MOVE is its source (RFC 4918 §9.8.5)' },
  basic_over_http: {
    status: [403],
    means: 'HTTP Basic credentials are taken only over HTTPS or on this machine: over plain http the password would travel in the clear',
  },
} as const satisfies Record<string, RefusalEntry>

export type RefusalCode = keyof typeof REFUSALS
/** The statuses code `C` may be sent with. */
export type StatusOf<C extends RefusalCode> = (typeof REFUSALS)[C]['status'][number]

/** The codes that may be sent with status `S`. */
export type CodeWithStatus<S extends number> = { [C in RefusalCode]: S extends StatusOf<C> ? C : never }[RefusalCode]

export const isRefusalCode = (code: string): code is RefusalCode => Object.hasOwn(REFUSALS, code)
