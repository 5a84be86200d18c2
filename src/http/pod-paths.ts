// The pod's URL space in one place: the endpoints of each role, and which first segments are reserved
// for them. Everything else below the base URL is a pod resource (Solid Protocol §3.1).

/** OpenID provider (Solid-OIDC, OIDC Discovery §4 for the well-known document). */
export const OP_PATHS = {
  discovery: '/.well-known/openid-configuration',
  authorization: '/.oidc/auth',
  token: '/.oidc/token',
  userinfo: '/.oidc/userinfo',
  registration: '/.oidc/reg',
  endSession: '/.oidc/session/end',
  jwks: '/.oidc/jwks',
  login: '/.oidc/login',
  consent: '/.oidc/consent',
} as const

/** UMA 2.0 authorization server (UMA Grant §2 for the well-known document). */
export const AS_PATHS = {
  configuration: '/.well-known/uma2-configuration',
  token: '/.uma/token',
  jwks: '/.uma/jwks',
} as const

/** The owner's pages and JSON API. */
export const ADMIN_PATHS = {
  dashboard: '/.admin/',
  dashboardScript: '/.admin/app.js',
  setup: '/.admin/setup',
  sessions: '/.admin/sessions',
  revokeSession: '/.admin/sessions/revoke',
  revokeConsent: '/.admin/consents/revoke',
  /** The page of what an approved app may reach (GET `?client_id=`), changed by its POST form. */
  appAccess: '/.admin/apps/access',
  /** PUT `?client_id=`: an approved app's folders, or full access (JSON). */
  appAccessApi: '/.admin/api/apps/access',
  /** The page of the open notification channels (GET) and ending one (POST form). */
  liveUpdates: '/.admin/live-updates',
  endChannel: '/.admin/live-updates/end',
  /** GET: the backup page; POST (form, CSRF): the pod as one tar.gz download, the format of `solopod export`. */
  backup: '/.admin/backup',
  /** The Pod status page: version, uptime, disk, certificate, last backup (the API's is `api/status`). */
  status: '/.admin/status',
  /** The dashboard's pages and their forms (each works without JavaScript): files (new folder, upload, delete, edit), sharing, profile. */
  files: '/.admin/files',
  /** Search by name across the pod (the store's name index): GET `?q=` the page, `api/search?q=&limit=` the JSON. */
  search: '/.admin/files/search',
  searchApi: '/.admin/api/search',
  newFolder: '/.admin/files/folder',
  upload: '/.admin/files/upload',
  delete: '/.admin/delete',
  download: '/.admin/files/download',
  /** A folder as one zip (`?path=`), or the rows selected in it (`&selected=yes&item=…`). */
  downloadZip: '/.admin/files/download-zip',
  /** A file's bytes shown in the owner's pages (`<img>`, `<video>` with Range), never run: only the kinds lib/preview-kind.ts names. */
  preview: '/.admin/files/preview',
  /** The page of one file: its preview and a link to download it. */
  view: '/.admin/files/view',
  /** A folder's photos and films as a grid of pictures, each opening the viewer. */
  gallery: '/.admin/files/gallery',
  /** Rename or move a file or folder (GET asks the new name and folder, POST moves). */
  move: '/.admin/files/move',
  moveApi: '/.admin/api/move',
  /** Copy a file or folder into a folder (GET asks which folder, POST copies, under a free name there). */
  copy: '/.admin/files/copy',
  /** A folder with everything in it: GET `tree/count?path=` (how many items), DELETE `tree?path=&count=`. */
  tree: '/.admin/api/tree',
  treeCount: '/.admin/api/tree/count',
  /** The trash: GET lists, POST `{path, count}` deletes into it, POST `trash/{id}/restore` puts an item back. */
  trash: '/.admin/api/trash',
  /** Undo: POST `{path, datetime}` writes back the state the resource had then (docs/versions.md). */
  restoreVersion: '/.admin/api/restore-version',
  /** Undo in a folder: POST `{path, datetime}` gives every resource under it that existed then its state of then. */
  restoreFolder: '/.admin/api/restore-folder',
  /** The pod's recent changes, newest first (GET `?app=&folder=&what=deleted&after=`). */
  activity: '/.admin/activity',
  /** One resource's kept states (GET `?path=`); a folder's: the changes under it and its restore to a time. */
  history: '/.admin/history',
  /** One kept state shown (GET `?path=&version=`), and its bytes as a download. */
  historyVersion: '/.admin/history/version',
  historyDownload: '/.admin/history/download',
  /** The forms: one state written back (POST `path, version, back`), a folder as it was (POST `path, at`). */
  historyRestore: '/.admin/history/restore',
  historyRestoreFolder: '/.admin/history/restore-folder',
  profile: '/.admin/profile',
  /** The owner's new password: the profile page's form (POST; the API's is `api/password`). */
  password: '/.admin/password',
  /** The owner's picture from the profile page's form (POST multipart; the API's is `api/profile/picture`). */
  profilePicture: '/.admin/profile/picture',
  /** The share page: who may do what (GET), add an entry, remove one, go back to inherited access (POST forms; GET inherit asks first). */
  share: '/.admin/share',
  /** Everything the owner has shared (ACL rules naming others, share links, grants), each with its way back. */
  sharedByMe: '/.admin/shared',
  shareAdd: '/.admin/share/add',
  shareRemove: '/.admin/share/remove',
  shareInherit: '/.admin/share/inherit',
  /** Share links (issue 38): every link (GET) with Remove (POST), and the share page's "Create link" (POST: the URL shown once). */
  links: '/.admin/links',
  linksAdd: '/.admin/links/add',
  linksSettings: '/.admin/links/settings',
  /** JSON: the owner's default and maximum expiry of share links (GET, PUT). */
  linkSettings: '/.admin/api/link-settings',
  linksRemove: '/.admin/links/remove',
  /** The edit page: an RDF document's Turtle in a text box (GET), saved with If-Match (POST). */
  edit: '/.admin/files/edit',
  /** The page of the client credentials of scripts and bots (GET), make one (POST, shows its secret once), remove one (POST). */
  credentialsPage: '/.admin/credentials',
  credentialsAdd: '/.admin/credentials/add',
  credentialsRemove: '/.admin/credentials/remove',
  api: '/.admin/api',
  /** Client credentials (GET list, POST make → the secret once); DELETE `credentials/{client id}` removes one. */
  credentials: '/.admin/api/credentials',
  /** Open notification channels (GET); DELETE `channels/{encoded channel id}` ends one. */
  channels: '/.admin/api/channels',
  /** The owner's pages for grants and HttpSig keys (the API's are `api/grants`, `api/keys`). */
  grantsPage: '/.admin/grants',
  keysPage: '/.admin/keys',
  /** Revoke forms of those pages (POST). */
  grantsRevoke: '/.admin/grants/revoke',
  keysRevoke: '/.admin/keys/revoke',
  /** What the dashboard deleted in the last 30 days (GET), and putting one back (POST form). */
  trashPage: '/.admin/trash',
  trashRestore: '/.admin/trash/restore',
  /** One item of the trash deleted for good: GET `?id=` asks (with the space it frees), POST deletes. */
  trashDelete: '/.admin/trash/delete',
  /** Everything in the trash deleted for good: GET asks (with the space it frees), POST `upTo` empties. */
  trashEmpty: '/.admin/trash/empty',
  /** The Files page's selected items (GET asks, POST acts): into the trash, or to another folder. */
  deleteSelected: '/.admin/files/delete-selected',
  moveSelected: '/.admin/files/move-selected',
  /** Access grants; each grant's IRI is `grants/{id}` (its document: JSON or RDF). */
  grants: '/.admin/api/grants',
  /** The owner's HttpSig keys (documents in /keys/): publish a public JWK, list, revoke. */
  keys: '/.admin/api/keys',
  /** "Why may X do Y?" */
  access: '/.admin/api/access',
  /** Is this a WebID to share with? (GET `?webid=`; the share form's check as typed) */
  webidCheck: '/.admin/api/webid-check',
  /** The GrantData JSON Schema, public. */
  grantSchema: '/.admin/schemas/grant-data.json',
} as const

/** Resource server: the storage description (Solid Protocol §4.1.2). */
export const RS_PATHS = {
  storageDescription: '/.well-known/solid',
  /** Upload resources of resumable uploads (IETF draft-ietf-httpbis-resumable-upload §4): `/.uploads/{32 hex}`. */
  uploads: '/.uploads/',
} as const

/**
 * Solid Notifications (Protocol 0.3): one subscription service per channel type (POST a channel request;
 * a channel's id is below it, DELETE ends it), the topic streams of StreamingHTTPChannel2023
 * (`streaming` + the topic's path) and the legacy solid-0.1 WebSocket that `Updates-Via` names.
 */
export const NOTIFY_PATHS = {
  base: '/.notifications/',
  webSocket: '/.notifications/WebSocketChannel2023/',
  webhook: '/.notifications/WebhookChannel2023/',
  streaming: '/.notifications/StreamingHTTPChannel2023/',
  legacy: '/.notifications/solid-0.1',
  /** The pod's own HttpSig key document (`#key`), which signs its webhook deliveries: public, Turtle or JSON-LD. */
  webhookKey: '/.notifications/webhook-key',
} as const

/**
 * The visitor's pages: someone the owner shared with signs in with their own Solid provider (the pod is a
 * relying party, with its own Client ID Document) and sees what is shared with them.
 */
export const VISIT_PATHS = {
  base: '/.visitor/',
  /** The pod's Client ID Document as a relying party (Solid-OIDC §5.1). */
  clientId: '/.visitor/id',
  /** GET: "Sign in with your WebID or pod provider" (`?return=` a pod path); POST: off to the provider. */
  signIn: '/.visitor/sign-in',
  /** The provider's redirect back (RFC 6749 §4.1.2). */
  callback: '/.visitor/callback',
  signOut: '/.visitor/sign-out',
  /** What is shared with the visitor (`?path=` a folder, or the list of everything shared). */
  files: '/.visitor/files',
  /** One shared file (`?path=`), downloaded or shown in a preview. */
  file: '/.visitor/file',
  upload: '/.visitor/upload',
  edit: '/.visitor/edit',
} as const

/**
 * Share links (issue 38): `/.links/TOKEN/` opens what the link names (a file, or a folder with `/.links/TOKEN/NAME…`
 * inside it) for anyone holding it, without an account. The token is a capability: no log line names it (`loggedPath`).
 */
export const LINK_PATHS = {
  base: '/.links/',
} as const

/** The path as a log line may name it: a share link's token is a secret (the holder's key), so it is left out. */
export const loggedPath = (path: string) => (path.startsWith(LINK_PATHS.base) ? path.replace(/^\/\.links\/[^/]*/, '/.links/(token)') : path)

/** The pod's own state for monitoring: health (anyone) and Prometheus metrics (loopback clients and the owner). */
export const MONITOR_PATHS = {
  health: '/.well-known/solopod/health',
  metrics: '/.well-known/solopod/metrics',
} as const

/** The owner's key documents (HttpSig): an ordinary container, public read and owner write, made at first start. */
export const KEYS_PATH = '/keys/'

/**
 * First segments that belong to the pod's own endpoints (`.uma` is the UMA authorization server's, `.uploads`
 * the RS's upload resources, `.notifications` the notification channels', `.visitor` the visitor's pages,
 * `.links` the share links').
 */
const RESERVED = /^\/(\.oidc|\.uma|\.admin|\.well-known|\.uploads|\.notifications|\.visitor|\.links)(\/|$|[^/]*)/

/** Paths of the pod's own endpoints are never pod resources, whatever the method. */
export const isReservedPath = (path: string) => RESERVED.test(path)

/** The owner's pages and API: `/.admin` and below (not `/.adminx`, reserved all the same). */
export const isAdminPath = (path: string) => path === '/.admin' || path.startsWith('/.admin/')

/**
 * Solid Protocol §8.1 asks CORS for what apps call: resources, discovery, JWKS, token, registration,
 * userinfo. The owner's pages and API and the OP's HTML pages (a browser navigates to them, no app
 * reads them) are same-origin only: with credentials allowed, any origin (another localhost port, a
 * sibling subdomain) could read them with the owner's cookie, CSRF tokens included. The GrantData
 * schema under /.admin/ is public, for apps to validate against.
 */
const SAME_ORIGIN_ONLY: readonly string[] = [OP_PATHS.authorization, OP_PATHS.login, OP_PATHS.consent, OP_PATHS.endSession, MONITOR_PATHS.metrics]
export const isSameOriginOnly = (path: string) =>
  (path.startsWith('/.admin/') && path !== ADMIN_PATHS.grantSchema) ||
  (path.startsWith(VISIT_PATHS.base) && path !== VISIT_PATHS.clientId) ||
  path.startsWith(LINK_PATHS.base) ||
  SAME_ORIGIN_ONLY.includes(path)

/**
 * The part of the pod a path belongs to, for the request metrics: a fixed, small set of values
 * (a path itself would make a label without bound).
 */
export type RouteGroup = 'oidc' | 'uma' | 'admin' | 'notifications' | 'uploads' | 'visitor' | 'links' | 'monitor' | 'well-known' | 'resources'
export function routeGroupOf(path: string): RouteGroup {
  if (!isReservedPath(path)) return 'resources'
  if (path.startsWith('/.oidc')) return 'oidc'
  if (path.startsWith('/.uma')) return 'uma'
  if (path.startsWith('/.admin')) return 'admin'
  if (path.startsWith('/.notifications')) return 'notifications'
  if (path.startsWith('/.uploads')) return 'uploads'
  if (path.startsWith('/.visitor')) return 'visitor'
  if (path.startsWith('/.links')) return 'links'
  if (path.startsWith('/.well-known/solopod/')) return 'monitor'
  return 'well-known'
}

/** The login page, coming back to `returnTo` (an owner page) once signed in. */
export const loginPageFor = (returnTo: string) => `${OP_PATHS.login}?return=${returnTo}`

/**
 * Where apps look for the owner's settings (Solid Type Indexes, the profile's `pim:preferencesFile` and
 * `solid:publicTypeIndex`; the preferences file's `solid:privateTypeIndex`). The names are those of the
 * Node Solid Server's new accounts, which the SolidOS data browser and other apps know.
 */
export const SETTINGS_PATHS = {
  container: '/settings/',
  preferences: '/settings/prefs.ttl',
  publicIndex: '/settings/publicTypeIndex.ttl',
  privateIndex: '/settings/privateTypeIndex.ttl',
} as const
