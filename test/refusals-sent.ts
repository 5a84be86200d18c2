// Which codes of the refusal catalogue (src/http/refusals.ts) the pods under test actually send, heard where
// every refusal is explained: the `request.refused` log event (http/render-error.ts logRefusal). The preload
// (test/preload.ts) hears it from in-process pods through the logger, whatever its level; test/e2e/start-server.ts
// reads it from the JSON log of the pods it starts as processes. With SOLOPOD_REFUSALS_SENT=FILE (`npm test`
// sets it) each code is written to FILE once, and test/refusals-sent-report.ts compares them with the catalogue.
// The environment variable is read here, in the tests, never by the pod: src/ has no seam for this.

import { appendFileSync, writeFileSync } from 'node:fs'
import { log } from '../src/log.ts'

const file = process.env.SOLOPOD_REFUSALS_SENT
const seen = new Set<string>()

export function noteRefusal(code: unknown) {
  if (file === undefined || typeof code !== 'string' || seen.has(code)) return
  seen.add(code)
  appendFileSync(file, `${code}\n`)
}

/** The codes of the `request.refused` lines of a pod's JSON log (stdout). */
export function noteRefusalsInLog(jsonLines: string) {
  if (file === undefined) return
  for (const line of jsonLines.split('\n')) {
    if (!line.includes('"request.refused"')) continue
    try {
      noteRefusal((JSON.parse(line) as { code?: unknown }).code)
    } catch {
      /* a line cut short by a kill */
    }
  }
}

/** Once per `bun test` run (the preload): the file starts empty, and the logger's refusals are heard even when silent. */
export function listenForRefusals() {
  if (file === undefined) return
  writeFileSync(file, '')
  for (const level of ['info', 'error'] as const) {
    const write = log[level]
    log[level] = (event, fields = {}) => {
      if (event === 'request.refused') noteRefusal(fields.code)
      write(event, fields)
    }
  }
}
