// The few human lines `solopod serve` prints on start (stderr), apart from the JSON log stream (stdout).

export interface BannerFacts {
  readonly version: string
  readonly baseUrl: string
  readonly webid: string
  readonly dataDir: string
  readonly logLevel: string
  /** The one-time link while the owner has no password; printed here only, never logged. */
  readonly setupLink?: string
}

export function formatBanner(f: BannerFacts): string {
  const row = (label: string, value: string) => `  ${label.padEnd(10)}${value}`
  const password = f.setupLink
    ? [row('Password', 'not set yet. Open this one-time link to set it (valid 7 days):'), row('', f.setupLink)]
    : [row('Sign in', `${f.baseUrl}/.oidc/login?return=/.admin/sessions`)]
  return [
    '',
    `solopod ${f.version}: your Solid pod is running`,
    row('URL', `${f.baseUrl}/`),
    row('WebID', f.webid),
    row('Data', f.dataDir),
    ...password,
    row('Logs', `JSON lines on stdout at level ${f.logLevel}${f.logLevel === 'debug' ? '' : ' (--log-level debug adds one line per request)'}`),
    row('New link', `solopod setup-link --data ${f.dataDir}  (from a checkout: npm run solopod -- setup-link --data ${f.dataDir})`),
    '',
  ].join('\n')
}
