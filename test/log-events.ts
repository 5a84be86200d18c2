// Waits for a log event of an in-process pod: the logger's level is raised to `info` and its lines are
// read (not printed) until the event is written; then the level goes back to `silent`, as the fixtures keep it.

import { spyOn } from 'bun:test'
import { setLogLevel } from '../src/log.ts'

/** Call before the action that logs `event`; resolves with the line's fields once it is written. */
export function nextLogEvent(event: string): Promise<Record<string, unknown>> {
  setLogLevel('info')
  const { promise, resolve } = Promise.withResolvers<Record<string, unknown>>()
  const spy = spyOn(console, 'log').mockImplementation((line: unknown) => {
    if (typeof line !== 'string' || !line.startsWith('{')) return
    const fields = JSON.parse(line) as Record<string, unknown>
    if (fields.event !== event) return
    spy.mockRestore()
    setLogLevel('silent')
    resolve(fields)
  })
  return promise
}
