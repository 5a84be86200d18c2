// The operations layer refuses without a Link (resources/acting.ts): the RS's 401 and 403 name the target's
// ACL and type links (the deny step of the request pipeline, docs/architecture.md), as its own decisions did.

import { HttpError } from '../http/errors.ts'
import { challengeLinks } from './resource-headers.ts'

/** `err` with the RS's Link for `path` when it is a refusal of the layer (its Link left empty); anything else as it is. */
export function withRefusalLinks(err: unknown, baseUrl: string, path: string): unknown {
  if (!(err instanceof HttpError) || (err.status !== 401 && err.status !== 403) || err.headers.link !== '') return err
  return new HttpError(err.status as never, err.code, err.description, {
    cause: err.cause,
    headers: { ...err.headers, link: challengeLinks(baseUrl, path) },
    extra: err.extra,
    logged: err.logged,
  })
}
