// One typed, frozen Config built from flags, then SOLOPOD_* env vars, then the defaults below.

import { resolve } from 'node:path'

export type Command = 'serve' | 'export' | 'import' | 'passwd' | 'setup-link'

export interface Config {
  readonly command: Command
  readonly port: number
  readonly host: string
  /** Origin of the pod, no trailing slash, e.g. `http://localhost:3000`. Also the OIDC issuer. */
  readonly baseUrl: string
  readonly dataDir: string
  readonly tlsCert?: string
  readonly tlsKey?: string
  readonly ownerPasswordFile?: string
  /** http on loopback hosts for remote documents (tests, development). */
  readonly allowInsecureLocal: boolean
  readonly maxBodyBytes: number
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent'
  /** The base URL was not given, so it follows the port (`http://localhost:PORT`). */
  readonly baseUrlFromPort: boolean
  /** Positional arguments after the command (export/import target). */
  readonly args: readonly string[]
}

export class ConfigError extends Error {}

/** The owner's WebID: the profile document first start writes at the pod's root (Solid WebID Profile). */
export const ownerWebIdOf = (baseUrl: string) => `${baseUrl}/profile/card#me`

interface Option { flag: string; env: string; help: string; boolean?: boolean }

export const OPTIONS: readonly Option[] = [
  { flag: 'port', env: 'SOLOPOD_PORT', help: 'TCP port to listen on (default 3000)' },
  { flag: 'host', env: 'SOLOPOD_HOST', help: 'interface to listen on (default 127.0.0.1; 0.0.0.0 for all)' },
  { flag: 'base-url', env: 'SOLOPOD_BASE_URL', help: 'public origin of the pod and OIDC issuer (default http://localhost:PORT, https with --tls-cert)' },
  { flag: 'data', env: 'SOLOPOD_DATA', help: 'data directory (default ./data)' },
  { flag: 'tls-cert', env: 'SOLOPOD_TLS_CERT', help: 'PEM certificate file: serve HTTPS' },
  { flag: 'tls-key', env: 'SOLOPOD_TLS_KEY', help: 'PEM private key file for --tls-cert' },
  { flag: 'owner-password-file', env: 'SOLOPOD_OWNER_PASSWORD_FILE', help: "file holding the owner's password (first start, passwd)" },
  { flag: 'allow-insecure-local', env: 'SOLOPOD_ALLOW_INSECURE_LOCAL', help: 'fetch http:// documents on loopback hosts (default: on when the base URL is on localhost)', boolean: true },
  { flag: 'max-body-bytes', env: 'SOLOPOD_MAX_BODY_BYTES', help: 'largest request body accepted (default 104857600)' },
  { flag: 'log-level', env: 'SOLOPOD_LOG_LEVEL', help: 'debug | info | warn | error | silent (default info)' },
]

const COMMANDS: readonly Command[] = ['serve', 'export', 'import', 'passwd', 'setup-link']
const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const

function parseFlags(argv: readonly string[]) {
  const flags = new Map<string, string>()
  const positional: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--')) { positional.push(arg); continue }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]
    const opt = OPTIONS.find(o => o.flag === name)
    if (!opt) throw new ConfigError(`unknown flag --${name} (see --help)`)
    if (opt.boolean) { flags.set(name, inline ?? 'true'); continue }
    const value = inline ?? argv[++i]
    if (value === undefined || value.startsWith('--')) throw new ConfigError(`--${name} needs a value`)
    flags.set(name, value)
  }
  return { flags, positional }
}

function parseBoolean(name: string, value: string): boolean {
  if (['1', 'true', 'yes', 'on'].includes(value)) return true
  if (['0', 'false', 'no', 'off'].includes(value)) return false
  throw new ConfigError(`--${name} must be true or false, got "${value}"`)
}

function parseInteger(name: string, value: string, min: number, max: number): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`--${name} must be an integer from ${min} to ${max}, got "${value}"`)
  return n
}

/** The pod is one origin: a base URL with a path would break the pod's URL space (http/pod-paths.ts). */
function parseBaseUrl(value: string): string {
  let url: URL
  try { url = new URL(value) } catch { throw new ConfigError(`--base-url must be an absolute URL, got "${value}"`) }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('--base-url must be http:// or https://')
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`--base-url must be an origin such as https://pod.example, without path, query or credentials; got "${value}"`)
  }
  return url.origin
}

const isLoopbackHost = (host: string) => host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host)

export function buildConfig(argv: readonly string[], env: Record<string, string | undefined>): Config {
  const { flags, positional } = parseFlags(argv)
  const command = (positional[0] ?? 'serve') as Command
  if (!COMMANDS.includes(command)) throw new ConfigError(`unknown command "${positional[0]}": expected ${COMMANDS.join(', ')}`)
  const get = (flag: string) => {
    const opt = OPTIONS.find(o => o.flag === flag)!
    return flags.get(flag) ?? (env[opt.env] || undefined)
  }
  const port = parseInteger('port', get('port') ?? '3000', 0, 65535)
  const givenBaseUrl = get('base-url')
  const tlsCert = get('tls-cert')
  const tlsKey = get('tls-key')
  const baseUrl = parseBaseUrl(givenBaseUrl ?? defaultBaseUrl(port, tlsCert !== undefined))
  if ((tlsCert === undefined) !== (tlsKey === undefined)) throw new ConfigError('--tls-cert and --tls-key must be given together')
  const logLevel = get('log-level') ?? 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new ConfigError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`)
  const insecure = get('allow-insecure-local')
  const ownerPasswordFile = get('owner-password-file')
  return Object.freeze({
    command,
    port,
    host: get('host') ?? '127.0.0.1',
    baseUrl,
    baseUrlFromPort: givenBaseUrl === undefined,
    dataDir: resolve(get('data') ?? './data'),
    ...(tlsCert ? { tlsCert: resolve(tlsCert), tlsKey: resolve(tlsKey!) } : {}),
    ...(ownerPasswordFile ? { ownerPasswordFile: resolve(ownerPasswordFile) } : {}),
    allowInsecureLocal: insecure === undefined ? isLoopbackHost(new URL(baseUrl).hostname) : parseBoolean('allow-insecure-local', insecure),
    maxBodyBytes: parseInteger('max-body-bytes', get('max-body-bytes') ?? String(100 * 1024 * 1024), 1024, 2 ** 40),
    logLevel: logLevel as Config['logLevel'],
    args: Object.freeze(positional.slice(1)),
  })
}

/** The config once the server is bound to `port` (for --port 0): a defaulted base URL names that port. */
export function withBoundPort(cfg: Config, port: number): Config {
  if (!cfg.baseUrlFromPort) return Object.freeze({ ...cfg, port })
  return Object.freeze({ ...cfg, port, baseUrl: defaultBaseUrl(port, cfg.tlsCert !== undefined) })
}

/** A pod that serves TLS itself names itself with https. */
const defaultBaseUrl = (port: number, tls: boolean) => `${tls ? 'https' : 'http'}://localhost:${port}`

export function usage(): string {
  const rows = OPTIONS.map(o => `  --${o.flag}${o.boolean ? '' : ' VALUE'}`.padEnd(32) + `${o.help} [${o.env}]`)
  return [
    'usage: solopod [serve|export|import|passwd|setup-link] [flags]',
    '  serve              run the pod (default)',
    '  export DEST        write the whole pod to DEST (a directory): N-Quads + binaries',
    '  import SRC         restore an export into an empty data directory',
    "  passwd             set the owner's password (from --owner-password-file or stdin)",
    "  setup-link         print a new one-time link to set the owner's password (also while the server runs)",
    '  --version          print the version', '  --help             print this text',
    '', 'flags:', ...rows,
  ].join('\n')
}
