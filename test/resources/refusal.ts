// What an operation of the layer refused with: its status and code.

import { HttpError } from '../../src/http/errors.ts'

/** The refusal `run` throws: status and code; fails when it throws none. */
export async function refusal(run: () => Promise<unknown>): Promise<[number, string]> {
  try {
    await run()
  } catch (err) {
    if (err instanceof HttpError) return [err.status, err.code]
    throw err
  }
  throw new Error('expected a refusal')
}
