// What a parsed PATCH body is, whichever patch language it was written in, and its two failures.

import type { Quad } from '@rdfjs/types'
import { HttpError } from '../http/errors.ts'

export interface PatchPlan {
  /** WAC modes the patch needs on the target (Solid Protocol §5.3.1: Append to insert, Read+Write to delete or use a where clause). */
  readonly needs: { readonly read: boolean; readonly append: boolean; readonly write: boolean }
  /**
   * The document's triples (default graph) after the patch; never mutates `doc`. Throws
   * HttpError 409 `patch_conflict` when the patch does not apply, and 422 `invalid_patch`
   * when its pattern would take too long to match against this document.
   */
  apply(doc: readonly Quad[]): Quad[]
}

export const invalidPatch = (description: string) => new HttpError(422, 'invalid_patch', description)
export const patchConflict = (description: string) => new HttpError(409, 'patch_conflict', description)
