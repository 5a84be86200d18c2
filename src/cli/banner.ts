// The few human lines `solopod serve` prints on start (stderr), apart from the JSON log stream (stdout).

import { ADMIN_PATHS, loginPageFor } from '../http/pod-paths.ts'

export interface BannerFacts {
  readonly version: string
  readonly baseUrl: string
  /** Where the server listens (with --port 0, the port the system picked). */
  readonly host: string
  readonly port: number
  readonly webid: string
  readonly dataDir: string
  readonly logLevel: string
  /** The one-time link while the owner has no password; printed here only, never logged. */
  readonly setupLink?: string
}

/** The first line, `solopod: serving URL on HOST:PORT`, is also what scripts and tests wait for. */
export function formatBanner(f: BannerFacts): string {
  const row = (label: string, value: string) => `  ${label.padEnd(10)}${value}`
  const password = f.setupLink
    ? [row('Password', 'not set yet. Open this one-time link to set it (valid 7 days):'), row('', f.setupLink)]
    : [row('Sign in', f.baseUrl + loginPageFor(ADMIN_PATHS.sessions))]
  return [
    '',
    `solopod: serving ${f.baseUrl} on ${f.host}:${f.port}`,
    row('Version', `solopod ${f.version}, your Solid pod`),
    row('URL', `${f.baseUrl}/`),
    row('WebID', f.webid),
    row('Data', f.dataDir),
    ...password,
    row('Logs', `JSON lines on stdout at level ${f.logLevel}${f.logLevel === 'debug' ? '' : ' (--log-level debug adds one line per request)'}`),
    row('New link', `solopod setup-link --data ${f.dataDir}  (from a checkout: npm run solopod -- setup-link --data ${f.dataDir})`),
    '',
  ].join('\n')
}
