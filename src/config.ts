// One typed, frozen Config built from flags, then SOLOPOD_* env vars, then the defaults below.

import { resolve } from 'node:path'
import { ipVersion } from './lib/ip-address.ts'
import { UserError } from './lib/user-error.ts'
import { DEFAULT_MEMORY_BUDGET, MIN_MEMORY_BUDGET, parseMemorySize } from './lib/memory-budget.ts'

export type Command = 'serve' | 'export' | 'import' | 'passwd' | 'setup-link' | 'keys' | 'clients' | 'links' | 'blobs'

export interface Config {
  readonly command: Command
  readonly port: number
  readonly host: string
  /** Origin of the pod, no trailing slash, e.g. `http://localhost:3000`. Also the OIDC issuer. */
  readonly baseUrl: string
  readonly dataDir: string
  readonly tlsCert?: string
  readonly tlsKey?: string
  /**
   * `--domain`: the pod obtains and renews its certificate itself (ACME, RFC 8555, http-01), serves
   * https on `port` and answers the challenge (and redirects to https) on `acme.httpPort`.
   */
  readonly acme?: AcmeConfig
  readonly ownerPasswordFile?: string
  /** http on loopback hosts for remote documents (tests, development). */
  readonly allowInsecureLocal: boolean
  /** Largest binary body (files); none by default: the disk is the limit, less `diskReserveBytes`. */
  readonly maxBodyBytes?: number
  /** Largest RDF body (PUT/POST of Turtle, JSON-LD, N-Triples): RDF is parsed in memory. */
  readonly maxRdfBytes: number
  /** Free space a file upload must leave on the data directory's disk (507 otherwise). */
  readonly diskReserveBytes: number
  /** `--blob-store s3://…`: the bytes of files in a bucket (keys from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY); absent: in the data directory. */
  readonly s3?: S3BlobConfig
  /** A resumable upload with no activity for this long is abandoned: its bytes and its upload resource go. */
  readonly uploadExpirySeconds: number
  /**
   * Days the previous states of every changed resource are kept (store/versions.ts): every one for an hour,
   * hourly for a day, daily after that; 0 keeps none (no versions are written, and the sweep removes those there are).
   */
  readonly keepVersionsDays: number
  /**
   * Percent of the data directory's filesystem size that versions and the trash may hold together (the bytes
   * only they hold); past it the version sweep removes the oldest versions, then trash items past their first
   * day (store/version-cap.ts). 0: no cap.
   */
  readonly versionsDiskShare: number
  /**
   * Open notification channels of agents other than the owner at most (all types together); past it a
   * subscription gets 503 too_many_channels. The owner's channels are counted apart, up to as many.
   */
  readonly maxChannels: number
  /** Open (and waiting) channels one client may hold: its agent, or its address when anonymous (429 past it). */
  readonly maxChannelsPerClient: number
  /** Bytes written to channels and not yet taken by their subscribers, all channels together. */
  readonly channelBufferBytes: number
  /** `--memory-budget`: resident bytes the pod is meant to stay under; the caches' bounds are shares of it (lib/memory-budget.ts). */
  readonly memoryBudgetBytes: number
  /** DPoP proofs one key may send within a second of iat before it alone gets 429 (auth/dpop-replay.ts). */
  readonly dpopProofsPerKey: number
  /** HttpSig nonces one signing key may send within a second of created before it alone gets 429 (auth/httpsig/nonce-cache.ts). */
  readonly httpsigNoncesPerKey: number
  /** Reverse proxies (IP addresses) whose Forwarded / X-Forwarded-For name the client. */
  readonly trustProxy: readonly string[]
  /** Largest PATCH body: a patch is parsed whole in memory, unlike a PUT body. */
  readonly maxPatchBytes: number
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent'
  /**
   * `token_type` of the UMA access tokens: `bearer` (what Solid clients expect) or `dpop` (the
   * resource server then requires a proof of the token's key with every request, RFC 9449 §7).
   */
  readonly umaTokenType: 'bearer' | 'dpop'
  /** `keys add`: the key document's name under /keys/ (`clients add`: the credential's name), and where the private JWK goes. */
  readonly keyName?: string
  readonly keyOut?: string
  /** `clients add`: each `--scope` as given (`/photos/`, `read:/notes/`); none is full access as the owner. */
  readonly scopes: readonly string[]
  /** `links add`: how long the link lasts (`30m`, `12h`, `7d`, `never`), as given; checked by the pod (account/share-links.ts). */
  readonly expires?: string
  /** `links settings --default-expiry`, as given (`7d`, `never`); checked by the pod (account/link-expiry.ts). */
  readonly defaultExpiry?: string
  /** `links settings --max-expiry`, as given (`365d`, `none`). */
  readonly maxExpiry?: string
  /** `links add`: what the link allows besides reading (`--upload-only`: only adding files; `--upload`: both). */
  readonly linkAllows?: 'upload' | 'read-upload'
  /** `links add --password-file`: the file holding the link's password. */
  readonly linkPasswordFile?: string
  /** `links add --max-downloads`: full downloads the link allows. */
  readonly maxDownloads?: number
  /** The base URL was not given, so it follows the port (`http://localhost:PORT`). */
  readonly baseUrlFromPort: boolean
  /** `blobs check --repair`: remove the blobs nothing names. */
  readonly repair: boolean
  /** `blobs move --to local|s3://…`: where the bytes go (the S3 flags go with it when the pod's own store is local). */
  readonly moveTo?: S3BlobConfig | 'local'
  /** Positional arguments after the command (export/import target). */
  readonly args: readonly string[]
}

export interface AcmeConfig {
  /** The one name the certificate is for; the base URL's host. */
  readonly domain: string
  /** The account's contact (RFC 8555 §7.3): the CA writes here about expiry and policy changes. */
  readonly email: string
  /** The ACME directory URL (RFC 8555 §7.1.1): Let's Encrypt by default, its staging or any other CA. */
  readonly directoryUrl: string
  /** A PEM file of CA certificates trusted for the directory's https, beside the system's (a private CA, a test CA). */
  readonly directoryCaFile?: string
  /** The port the http-01 challenge reaches (RFC 8555 §8.3: the CA connects to 80; a redirect may put the pod elsewhere). */
  readonly httpPort: number
}

/** RFC 8555 §7.1.1 directory of Let's Encrypt's production CA. */
export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory'

export class ConfigError extends UserError {}

/** `--blob-store s3://BUCKET[/prefix]` and its company (store/s3-blob-store.ts); never the keys. */
export interface S3BlobConfig {
  readonly bucket: string
  /** Put before every object key: empty, or ending in `/`. */
  readonly prefix: string
  readonly endpoint: string
  readonly region: string
  /** An operation of the bucket that takes longer fails (the request answers 503) instead of hanging. */
  readonly timeoutMs: number
  /**
   * An object no record names is swept once it is older than this (a write stores its object just before the batch
   * that names it commits), and the pod looks for such objects this often while it serves.
   */
  readonly sweepGraceMs: number
}

/** The owner's WebID: the profile document first start writes at the pod's root (Solid WebID Profile). */
export const ownerWebIdOf = (baseUrl: string) => `${baseUrl}/profile/card#me`

interface Option {
  flag: string
  env?: string
  help: string
  boolean?: boolean /** Given once per value; no env var (a list of paths has no safe separator). */
  repeated?: boolean
}

export const OPTIONS: readonly Option[] = [
  { flag: 'port', env: 'SOLOPOD_PORT', help: 'TCP port to listen on (default 3000; 443 with --domain)' },
  { flag: 'host', env: 'SOLOPOD_HOST', help: 'interface to listen on (default 127.0.0.1, 0.0.0.0 with --domain; 0.0.0.0 for all)' },
  { flag: 'base-url', env: 'SOLOPOD_BASE_URL', help: 'public origin of the pod and OIDC issuer (default http://localhost:PORT, https with --tls-cert)' },
  { flag: 'data', env: 'SOLOPOD_DATA', help: 'data directory (default ./data)' },
  { flag: 'tls-cert', env: 'SOLOPOD_TLS_CERT', help: 'PEM certificate file: serve HTTPS' },
  { flag: 'tls-key', env: 'SOLOPOD_TLS_KEY', help: 'PEM private key file for --tls-cert' },
  { flag: 'domain', env: 'SOLOPOD_DOMAIN', help: 'serve https for this name with a certificate the pod obtains and renews itself (ACME); needs --acme-email' },
  { flag: 'acme-email', env: 'SOLOPOD_ACME_EMAIL', help: "contact address of the pod's ACME account (--domain)" },
  { flag: 'acme-directory', env: 'SOLOPOD_ACME_DIRECTORY', help: `ACME directory URL (default Let's Encrypt: ${LETS_ENCRYPT_DIRECTORY})` },
  { flag: 'acme-ca-file', env: 'SOLOPOD_ACME_CA_FILE', help: "PEM file of CA certificates to trust for the ACME directory's https (a private or test CA)" },
  { flag: 'http-port', env: 'SOLOPOD_HTTP_PORT', help: 'with --domain: port of the http-01 challenge and the redirect to https (default 80)' },
  { flag: 'owner-password-file', env: 'SOLOPOD_OWNER_PASSWORD_FILE', help: "file holding the owner's password (first start, passwd)" },
  {
    flag: 'allow-insecure-local',
    env: 'SOLOPOD_ALLOW_INSECURE_LOCAL',
    help: 'fetch http:// documents on loopback hosts (default: on when the base URL is on localhost)',
    boolean: true,
  },
  { flag: 'max-body-bytes', env: 'SOLOPOD_MAX_BODY_BYTES', help: 'largest file (binary body) accepted (default: no limit but the disk)' },
  { flag: 'max-rdf-bytes', env: 'SOLOPOD_MAX_RDF_BYTES', help: 'largest RDF document body accepted (default 104857600)' },
  { flag: 'disk-reserve-bytes', env: 'SOLOPOD_DISK_RESERVE_BYTES', help: 'free space file uploads must leave on the disk (default 268435456)' },
  {
    flag: 'blob-store',
    env: 'SOLOPOD_BLOB_STORE',
    help: 'where the bytes of files live: local (the data directory, default) or s3://BUCKET[/prefix] with --s3-endpoint; keys from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
  },
  { flag: 's3-endpoint', env: 'SOLOPOD_S3_ENDPOINT', help: 'URL of the S3-compatible service for --blob-store s3://… (path-style requests)' },
  { flag: 's3-region', env: 'SOLOPOD_S3_REGION', help: 'region the S3 requests are signed for (default us-east-1; R2: auto)' },
  {
    flag: 's3-timeout-seconds',
    env: 'SOLOPOD_S3_TIMEOUT_SECONDS',
    help: 'an object store operation slower than this fails, and the request answers 503 with Retry-After (default 15)',
  },
  {
    flag: 's3-sweep-grace-seconds',
    env: 'SOLOPOD_S3_SWEEP_GRACE_SECONDS',
    help: 'objects no record names (left by a crash mid-write) are removed once this old, looked for this often (default 3600)',
  },
  {
    flag: 'keep-versions-days',
    env: 'SOLOPOD_KEEP_VERSIONS_DAYS',
    help: 'days every change can be undone: previous states are kept, thinned to hourly after an hour and daily after a day; 0 keeps none (default 30)',
  },
  {
    flag: 'versions-disk-share',
    env: 'SOLOPOD_VERSIONS_DISK_SHARE',
    help: "percent of the data directory's filesystem versions and the trash may hold together; past it the oldest versions go first; 0: no cap (default 20)",
  },
  {
    flag: 'upload-expiry-seconds',
    env: 'SOLOPOD_UPLOAD_EXPIRY_SECONDS',
    help: 'a resumable upload idle this long is abandoned and its bytes removed (default 86400)',
  },
  {
    flag: 'max-channels',
    env: 'SOLOPOD_MAX_CHANNELS',
    help: "notification channels (sockets, streams, webhooks) of others than the owner open at once at most; the owner's are counted apart (default 20000)",
  },
  {
    flag: 'max-channels-per-client',
    env: 'SOLOPOD_MAX_CHANNELS_PER_CLIENT',
    help: 'notification channels one client (its agent, or its address when anonymous) may hold; the owner has no such cap (default 100)',
  },
  {
    flag: 'channel-buffer-bytes',
    env: 'SOLOPOD_CHANNEL_BUFFER_BYTES',
    help: 'notification bytes all channels together may hold unsent; past it the slowest are closed (default 67108864)',
  },
  {
    flag: 'memory-budget',
    env: 'SOLOPOD_MEMORY_BUDGET',
    help: 'resident memory the pod is meant to stay under, in bytes or with MB/GB; its caches take fixed shares of it (default 128MB, at least 96MB)',
  },
  {
    flag: 'dpop-proofs-per-key',
    env: 'SOLOPOD_DPOP_PROOFS_PER_KEY',
    help: 'DPoP proofs one client key may send within a second before it alone is slowed with 429 (default 16384)',
  },
  {
    flag: 'httpsig-nonces-per-key',
    env: 'SOLOPOD_HTTPSIG_NONCES_PER_KEY',
    help: 'HttpSig signatures one signing key may send within a second before it alone is slowed with 429 (default 16384)',
  },
  {
    flag: 'trust-proxy',
    env: 'SOLOPOD_TRUST_PROXY',
    help: 'comma-separated IP addresses of reverse proxies whose Forwarded / X-Forwarded-For name the client (default none)',
  },
  { flag: 'max-patch-bytes', env: 'SOLOPOD_MAX_PATCH_BYTES', help: 'largest PATCH body accepted (default 1048576)' },
  { flag: 'log-level', env: 'SOLOPOD_LOG_LEVEL', help: 'debug | info | warn | error | silent (default info)' },
  { flag: 'uma-token-type', env: 'SOLOPOD_UMA_TOKEN_TYPE', help: 'bearer | dpop: how UMA access tokens are presented (default bearer)' },
  {
    flag: 'name',
    env: 'SOLOPOD_KEY_NAME',
    help: "keys add: name of the key document under /keys/ (default key-<date>-<random>); clients add: the credential's name",
  },
  { flag: 'out', env: 'SOLOPOD_KEY_OUT', help: 'keys add: file for the private JWK (default DATA/private-keys/NAME.jwk, mode 0600)' },
  {
    flag: 'expires',
    help: "links add: how long the link lasts: 30m, 12h, 7d … (default and maximum: the owner's, see links settings), or never (only with no maximum)",
  },
  {
    flag: 'default-expiry',
    help: 'links settings: how long a new link lasts when no expiry is chosen: 30m, 12h, 7d … (initially 7d), or never (only with no maximum)',
  },
  { flag: 'max-expiry', help: 'links settings: the longest a new link may last: 30d, 365d … (initially 365d), or none: no maximum, and never may be chosen' },
  { flag: 'upload-only', help: 'links add: a file drop: whoever holds the link adds files to the folder and sees nothing', boolean: true },
  { flag: 'upload', help: 'links add: whoever holds the link sees the folder and adds files to it', boolean: true },
  { flag: 'password-file', help: 'links add: a file holding the password the link also asks for (one trailing newline is dropped)' },
  { flag: 'max-downloads', help: 'links add: how many full downloads the link allows; then it answers 410' },
  { flag: 'repair', boolean: true, help: 'blobs check: remove the blobs no record names (orphans)' },
  { flag: 'to', help: 'blobs move: where the files go: local (the data directory) or s3://BUCKET[/prefix] with --s3-endpoint' },
  {
    flag: 'scope',
    repeated: true,
    help: 'clients add: a folder the credential may read and write (/photos/), or only read (read:/notes/); repeat for more; none = full access as the owner',
  },
]

export const BLOBS_USAGE =
  'usage: solopod blobs check [--repair] | blobs move --to local|s3://BUCKET[/prefix] [--s3-endpoint URL] [--s3-region R]  (with --data DIR, and --blob-store … for a pod in a bucket)'

const COMMANDS: readonly Command[] = ['serve', 'export', 'import', 'passwd', 'setup-link', 'keys', 'clients', 'links', 'blobs']
/** Positional arguments each command takes: a stray word is refused, never silently dropped. */
const ARGUMENTS: Record<Command, number> = { serve: 0, export: 1, import: 1, passwd: 0, 'setup-link': 0, keys: 1, clients: 1, links: 1, blobs: 1 }
/** `clients` subcommands and the arguments after them. */
const CLIENTS_USAGE = 'usage: solopod clients add --name N [--scope /folder/ | --scope read:/folder/]… | clients list | clients remove ID  (with --data DIR)'
const CLIENT_SUBCOMMANDS: Record<string, number> = { add: 0, list: 0, remove: 1 }
const LINKS_USAGE =
  'usage: solopod links add PATH [--expires DURATION] [--upload-only | --upload] [--name N] [--password-file F] [--max-downloads N] | links list | links remove ID | links settings [--default-expiry D|never] [--max-expiry D|none]  (with --data DIR)'
const LINK_SUBCOMMANDS: Record<string, number> = { add: 1, list: 0, remove: 1, settings: 0 }
const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const

function parseFlags(argv: readonly string[]) {
  const flags = new Map<string, string>()
  const lists = new Map<string, string[]>()
  const positional: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--')) {
      positional.push(arg)
      continue
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]
    const opt = OPTIONS.find(o => o.flag === name)
    if (!opt) throw new ConfigError(`unknown flag --${name} (see --help)`)
    if (opt.boolean) {
      // `--flag no` would otherwise turn the flag on and leave "no" behind as a stray argument.
      const next = argv[i + 1]
      if (inline === undefined && next !== undefined && BOOLEAN_WORDS.includes(next.toLowerCase())) {
        throw new ConfigError(`--${name} takes no separate value: write --${name} or --${name}=${next.toLowerCase() === 'true' ? 'true' : 'false'}`)
      }
      flags.set(name, inline ?? 'true')
      continue
    }
    const value = inline ?? argv[++i]
    if (value === undefined || value.startsWith('--')) throw new ConfigError(`--${name} needs a value`)
    if (opt.repeated) lists.set(name, [...(lists.get(name) ?? []), value])
    else flags.set(name, value)
  }
  return { flags, lists, positional }
}

// Words someone might mean as a boolean's value: refused after a boolean flag instead of becoming a stray argument.
const BOOLEAN_WORDS = ['true', 'false', 'yes', 'no', 'on', 'off', '1', '0']

function parseBoolean(label: string, value: string): boolean {
  if (value === 'true') return true
  if (value === 'false') return false
  throw new ConfigError(`${label} must be true or false, got "${value}"`)
}

function parseInteger(name: string, value: string, min: number, max: number): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`--${name} must be an integer from ${min} to ${max}, got "${value}"`)
  return n
}

/** `--memory-budget 128MB`: below the minimum the runtime alone would overrun it, so the pod refuses to start. */
function parseMemoryBudget(label: string, value: string | undefined): number {
  if (value === undefined) return DEFAULT_MEMORY_BUDGET
  const bytes = parseMemorySize(value)
  if (bytes === undefined) throw new ConfigError(`${label} must be a number of bytes, or of KB, MB or GB (e.g. 128MB), got "${value}"`)
  if (bytes < MIN_MEMORY_BUDGET)
    throw new ConfigError(
      `${label} ${value} is too small to run: Bun and the pod take about 70 MB before any cache, so the budget must be at least ${MIN_MEMORY_BUDGET / 1024 ** 2}MB`,
    )
  return bytes
}

/** The pod is one origin: a base URL with a path would break the pod's URL space (http/pod-paths.ts). */
function parseBaseUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(`--base-url must be an absolute URL, got "${value}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('--base-url must be http:// or https://')
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`--base-url must be an origin such as https://pod.example, without path, query or credentials; got "${value}"`)
  }
  return url.origin
}

/** `--trust-proxy 127.0.0.1,::1`: IP addresses only (a name would be resolved differently over time). */
function parseTrustProxy(value: string | undefined): readonly string[] {
  if (value === undefined) return Object.freeze([])
  const list = value
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '')
  const bad = list.find(a => ipVersion(a) === 0)
  if (bad !== undefined || list.length === 0)
    throw new ConfigError(`--trust-proxy must be a comma-separated list of IP addresses, e.g. 127.0.0.1,::1; got "${bad ?? value}"`)
  return Object.freeze(list)
}

const isLoopbackHost = (host: string) => host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host)

export function buildConfig(argv: readonly string[], env: Record<string, string | undefined>): Config {
  const { flags, lists, positional } = parseFlags(argv)
  const command = (positional[0] ?? 'serve') as Command
  if (!COMMANDS.includes(command)) throw new ConfigError(`unknown command "${positional[0]}": expected ${COMMANDS.join(', ')}`)
  const wanted = ARGUMENTS[command]
  const args = positional.slice(1)
  if (command === 'blobs' && (!['check', 'move'].includes(args[0] ?? '') || args.length !== 1)) throw new ConfigError(BLOBS_USAGE)
  if (command === 'keys' && args[0] !== 'add') throw new ConfigError('usage: solopod keys add --data DIR [--name N] [--out FILE]')
  if (command === 'clients' && CLIENT_SUBCOMMANDS[args[0] ?? ''] !== args.length - 1) throw new ConfigError(CLIENTS_USAGE)
  if (command === 'links' && LINK_SUBCOMMANDS[args[0] ?? ''] !== args.length - 1) throw new ConfigError(LINKS_USAGE)
  else if (command !== 'clients' && command !== 'links' && args.length !== wanted) {
    throw new ConfigError(
      wanted === 0 ? `${command} takes no arguments, got "${args.join(' ')}"` : `${command} needs one argument (a directory), got ${args.length}`,
    )
  }
  const get = (flag: string) => {
    const opt = OPTIONS.find(o => o.flag === flag)!
    return flags.get(flag) ?? (opt.env ? env[opt.env] || undefined : undefined)
  }
  // Which of flag and env var gave a value, for the message of a bad one.
  const labelOf = (flag: string) => (flags.has(flag) ? `--${flag}` : (OPTIONS.find(o => o.flag === flag)!.env ?? `--${flag}`))
  const givenBaseUrl = get('base-url')
  const tlsCert = get('tls-cert')
  const tlsKey = get('tls-key')
  const acme = parseAcme(get, tlsCert !== undefined)
  // A pod with its own certificate is a public https server: 443 unless told otherwise.
  const port = parseInteger('port', get('port') ?? (acme ? '443' : '3000'), acme ? 1 : 0, 65535)
  const baseUrl =
    givenBaseUrl !== undefined ? parseBaseUrl(givenBaseUrl) : acme ? httpsOrigin(acme.domain, port) : parseBaseUrl(defaultBaseUrl(port, tlsCert !== undefined))
  if (acme && new URL(baseUrl).hostname !== acme.domain) throw new ConfigError(`--base-url must name the --domain ${acme.domain}, got "${givenBaseUrl}"`)
  if (acme && !baseUrl.startsWith('https://')) throw new ConfigError('--base-url must be https:// with --domain')
  if ((tlsCert === undefined) !== (tlsKey === undefined)) throw new ConfigError('--tls-cert and --tls-key must be given together')
  const logLevel = get('log-level') ?? 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new ConfigError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`)
  const umaTokenType = get('uma-token-type') ?? 'bearer'
  if (umaTokenType !== 'bearer' && umaTokenType !== 'dpop') throw new ConfigError(`--uma-token-type must be bearer or dpop, got "${umaTokenType}"`)
  const insecure = get('allow-insecure-local')
  const ownerPasswordFile = get('owner-password-file')
  const keyName = get('name')
  const expires = get('expires')
  const defaultExpiry = get('default-expiry')
  const maxExpiry = get('max-expiry')
  const uploadOnly = flags.has('upload-only') && parseBoolean('--upload-only', flags.get('upload-only')!)
  const upload = flags.has('upload') && parseBoolean('--upload', flags.get('upload')!)
  if (uploadOnly && upload) throw new ConfigError('--upload-only and --upload exclude each other: a file drop shows nothing, --upload shows the folder too')
  const keyOut = get('out')
  const linkPasswordFile = get('password-file')
  const maxDownloads = get('max-downloads')
  const maxBodyBytes = get('max-body-bytes')
  const moving = command === 'blobs' && args[0] === 'move'
  if (moving && get('to') === undefined) throw new ConfigError('blobs move needs --to local or --to s3://BUCKET[/prefix] --s3-endpoint URL')
  if (!moving && flags.has('to')) throw new ConfigError('--to goes with blobs move')
  // `blobs move --to s3://…` from a pod in its data directory: the S3 flags are the target's.
  const ownS3 = (get('blob-store') ?? 'local') !== 'local'
  const s3 = moving && !ownS3 ? undefined : parseBlobStore(get, 'blob-store', !moving)
  const moveTo = moving ? (parseBlobStore(get, 'to', !ownS3) ?? 'local') : undefined
  return Object.freeze({
    command,
    port,
    // Reachable from the internet, as the CA's http-01 check and the pod's visitors need
    host: get('host') ?? (acme ? '0.0.0.0' : '127.0.0.1'),
    baseUrl,
    baseUrlFromPort: givenBaseUrl === undefined,
    dataDir: resolve(get('data') ?? './data'),
    ...(tlsCert ? { tlsCert: resolve(tlsCert), tlsKey: resolve(tlsKey!) } : {}),
    ...(acme ? { acme } : {}),
    ...(ownerPasswordFile ? { ownerPasswordFile: resolve(ownerPasswordFile) } : {}),
    allowInsecureLocal: insecure === undefined ? isLoopbackHost(new URL(baseUrl).hostname) : parseBoolean(labelOf('allow-insecure-local'), insecure),
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes: parseInteger('max-body-bytes', maxBodyBytes, 1024, 2 ** 50) }),
    maxRdfBytes: parseInteger('max-rdf-bytes', get('max-rdf-bytes') ?? String(100 * 1024 * 1024), 1024, 2 ** 32),
    diskReserveBytes: parseInteger('disk-reserve-bytes', get('disk-reserve-bytes') ?? String(256 * 1024 * 1024), 0, 2 ** 50),
    ...(s3 ? { s3 } : {}),
    ...(moveTo ? { moveTo } : {}),
    keepVersionsDays: parseInteger('keep-versions-days', get('keep-versions-days') ?? '30', 0, 3650),
    versionsDiskShare: parseInteger('versions-disk-share', get('versions-disk-share') ?? '20', 0, 100),
    uploadExpirySeconds: parseInteger('upload-expiry-seconds', get('upload-expiry-seconds') ?? String(24 * 60 * 60), 1, 365 * 24 * 60 * 60),
    maxChannels: parseInteger('max-channels', get('max-channels') ?? '20000', 1, 1_000_000),
    maxChannelsPerClient: parseInteger('max-channels-per-client', get('max-channels-per-client') ?? '100', 1, 1_000_000),
    channelBufferBytes: parseInteger('channel-buffer-bytes', get('channel-buffer-bytes') ?? String(64 * 1024 * 1024), 64 * 1024, 2 ** 40),
    memoryBudgetBytes: parseMemoryBudget(labelOf('memory-budget'), get('memory-budget')),
    // the default is DPOP_PROOFS_PER_KEY (auth/dpop-replay.ts, which says how it was measured)
    dpopProofsPerKey: parseInteger('dpop-proofs-per-key', get('dpop-proofs-per-key') ?? '16384', 1, 1_000_000),
    // the default is HTTPSIG_NONCES_PER_KEY (auth/httpsig/nonce-cache.ts)
    httpsigNoncesPerKey: parseInteger('httpsig-nonces-per-key', get('httpsig-nonces-per-key') ?? '16384', 1, 1_000_000),
    trustProxy: parseTrustProxy(get('trust-proxy')),
    maxPatchBytes: parseInteger('max-patch-bytes', get('max-patch-bytes') ?? String(1024 * 1024), 1024, 2 ** 30),
    logLevel: logLevel as Config['logLevel'],
    umaTokenType,
    ...(keyName ? { keyName } : {}),
    ...(keyOut ? { keyOut: resolve(keyOut) } : {}),
    scopes: Object.freeze(lists.get('scope') ?? []),
    repair: flags.has('repair') ? parseBoolean('--repair', flags.get('repair')!) : false,
    ...(expires !== undefined ? { expires } : {}),
    ...(defaultExpiry !== undefined ? { defaultExpiry } : {}),
    ...(maxExpiry !== undefined ? { maxExpiry } : {}),
    ...(linkPasswordFile !== undefined ? { linkPasswordFile: resolve(linkPasswordFile) } : {}),
    ...(maxDownloads !== undefined ? { maxDownloads: parseInteger('max-downloads', maxDownloads, 1, 1_000_000) } : {}),
    ...(uploadOnly ? { linkAllows: 'upload' as const } : upload ? { linkAllows: 'read-upload' as const } : {}),
    args: Object.freeze(args),
  })
}

/** S3 bucket names: 3 to 63 lowercase letters, digits, dots and hyphens. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/

/** `--blob-store` (or `--to`) and its company; undefined for the local directory (an --s3-* flag alone is refused when `strict`). */
function parseBlobStore(get: (flag: string) => string | undefined, flag: 'blob-store' | 'to', strict: boolean): S3BlobConfig | undefined {
  const store = get(flag) ?? 'local'
  const endpoint = get('s3-endpoint')
  const region = get('s3-region')
  const timeout = get('s3-timeout-seconds')
  const grace = get('s3-sweep-grace-seconds')
  if (store === 'local') {
    const stray = [
      ['s3-endpoint', endpoint],
      ['s3-region', region],
      ['s3-timeout-seconds', timeout],
      ['s3-sweep-grace-seconds', grace],
    ].find(([, v]) => v !== undefined)
    if (stray && strict) throw new ConfigError(`--${stray[0]} needs --blob-store s3://BUCKET`)
    return undefined
  }
  const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(store)
  if (!m || !BUCKET.test(m[1]!)) throw new ConfigError(`--${flag} must be local or s3://BUCKET[/prefix], got "${store}"`)
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '')
  if (endpoint === undefined) throw new ConfigError(`--${flag} s3://… needs --s3-endpoint URL (e.g. https://s3.us-east-1.amazonaws.com)`)
  if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol)) throw new ConfigError(`--s3-endpoint must be an http(s) URL, got "${endpoint}"`)
  return Object.freeze({
    bucket: m[1]!,
    prefix: prefix === '' ? '' : `${prefix}/`,
    endpoint: endpoint.replace(/\/+$/, ''),
    region: region ?? 'us-east-1',
    timeoutMs: parseInteger('s3-timeout-seconds', timeout ?? '15', 1, 3600) * 1000,
    sweepGraceMs: parseInteger('s3-sweep-grace-seconds', grace ?? '3600', 1, 7 * 86_400) * 1000,
  })
}

/** RFC 1035 §2.3.1 host names (letters, digits, hyphens; dots between labels): a certificate names one. */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/** `--domain` and its company; undefined without `--domain` (an --acme-* flag alone is refused). */
function parseAcme(get: (flag: string) => string | undefined, tlsFiles: boolean): AcmeConfig | undefined {
  const domain = get('domain')?.toLowerCase()
  const email = get('acme-email')
  const directory = get('acme-directory')
  const caFile = get('acme-ca-file')
  const httpPort = get('http-port')
  if (domain === undefined) {
    const stray = [
      ['acme-email', email],
      ['acme-directory', directory],
      ['acme-ca-file', caFile],
      ['http-port', httpPort],
    ].find(([, v]) => v !== undefined)
    if (stray) throw new ConfigError(`--${stray[0]} needs --domain`)
    return undefined
  }
  if (!DOMAIN.test(domain)) throw new ConfigError(`--domain must be a host name such as pod.example, got "${domain}"`)
  if (tlsFiles) throw new ConfigError('--domain and --tls-cert exclude each other: the pod either obtains its certificate or is given one')
  if (email === undefined || !/^[^\s@]+@[^\s@]+$/.test(email))
    throw new ConfigError('--domain needs --acme-email with a contact address for the ACME account, e.g. me@example.org')
  let directoryUrl = LETS_ENCRYPT_DIRECTORY
  if (directory !== undefined) {
    if (!URL.canParse(directory) || new URL(directory).protocol !== 'https:')
      throw new ConfigError(`--acme-directory must be an https:// URL (RFC 8555 §6.1), got "${directory}"`)
    directoryUrl = directory
  }
  return Object.freeze({
    domain,
    email,
    directoryUrl,
    ...(caFile ? { directoryCaFile: resolve(caFile) } : {}),
    httpPort: parseInteger('http-port', httpPort ?? '80', 1, 65535),
  })
}

/** `https://DOMAIN`, with the port unless it is https's own. */
const httpsOrigin = (domain: string, port: number) => (port === 443 ? `https://${domain}` : `https://${domain}:${port}`)

/** The config once the server is bound to `port` (for --port 0): a defaulted base URL names that port. */
export function withBoundPort(cfg: Config, port: number): Config {
  if (!cfg.baseUrlFromPort) return Object.freeze({ ...cfg, port })
  return Object.freeze({ ...cfg, port, baseUrl: defaultBaseUrl(port, cfg.tlsCert !== undefined) })
}

/** A pod that serves TLS itself names itself with https. */
const defaultBaseUrl = (port: number, tls: boolean) => `${tls ? 'https' : 'http'}://localhost:${port}`

export function usage(): string {
  const rows = OPTIONS.map(
    o => `  --${o.flag}${o.boolean ? '' : ' VALUE'}`.padEnd(32) + o.help + (o.env ? ` [${o.env}]` : '') + (o.repeated ? ' (repeatable)' : ''),
  )
  return [
    'usage: solopod [serve|export|import|passwd|setup-link|keys add|clients add|clients list|clients remove ID|links add PATH|links list|links remove ID|links settings|blobs check|blobs move] [flags]',
    '  serve              run the pod (default)',
    '  export DEST        write the whole pod to DEST (a directory): N-Quads + binaries',
    '  import SRC         restore an export (directory, or a backup .tar.gz from the dashboard) into an empty data directory',
    "  passwd             set the owner's password (from --owner-password-file or stdin)",
    '  keys add           new HttpSig key for the owner: public key in /keys/, private JWK in a 0600 file (server stopped)',
    "  setup-link         print a new one-time link to set the owner's password (also while the server runs)",
    '  clients add        new client credential for a script or bot (--name, --scope …): prints client_id=… and client_secret=… (also while the server runs)',
    '  clients list       the client credentials: id, name, folders, created, last used',
    '  clients remove ID  remove a client credential: its tokens are refused from their next request',
    '  links add PATH     new share link to a file or folder for someone without an account (--expires, --upload-only, --upload, --name, --password-file, --max-downloads): prints id=… and url=… (also while the server runs)',
    '  links list         the share links: id, path, what they allow, expiry, uses',
    '  links remove ID    remove a share link: every use of it ends at once',
    "  links settings     the owner's link expiry: prints the default and the maximum; --default-expiry and --max-expiry (or none) change them for new links (also while the server runs)",
    "  blobs check        every file's bytes are in the blob store with their size; lists orphans, --repair removes them (server stopped)",
    '  blobs move --to T  moves the bytes of files to T (local or s3://BUCKET[/prefix]) while the pod serves, resumably, each verified by sha256',
    '  --version          print the version',
    '  --help             print this text',
    '',
    'flags:',
    ...rows,
  ].join('\n')
}
