// The one logger: JSON lines on stdout, fields by allowlist.
// stdout is the log stream; what is meant for a person (the start banner, the setup link) goes to stderr.

type Level = 'debug' | 'info' | 'warn' | 'error'
const RANK: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

let threshold = RANK.info

export function setLogLevel(level: Level | 'silent') {
  threshold = RANK[level]
}

function emit(level: Level, event: string, fields: Record<string, unknown>) {
  if (RANK[level] < threshold) return
  const line = JSON.stringify({ t: new Date().toISOString(), level, event, ...fields })
  console.log(line)
}

export const log = {
  /** For a line whose fields cost something to gather: skip gathering them when the line would be dropped. */
  enabled: (level: Level) => RANK[level] >= threshold,
  debug: (event: string, fields: Record<string, unknown> = {}) => emit('debug', event, fields),
  info: (event: string, fields: Record<string, unknown> = {}) => emit('info', event, fields),
  warn: (event: string, fields: Record<string, unknown> = {}) => emit('warn', event, fields),
  error: (event: string, fields: Record<string, unknown> = {}) => emit('error', event, fields),
}

/** An error's message and the chain of causes, for logs only (never sent to clients). */
export function describeCause(err: unknown): string {
  const parts: string[] = []
  for (let e = err, depth = 0; e !== undefined && depth < 5; depth++) {
    parts.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e))
    e = e instanceof Error ? e.cause : undefined
  }
  return parts.join(' <- ')
}
