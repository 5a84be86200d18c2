// The answer to a PUT or PATCH that landed (Solid Protocol §5.3): 201 with Location when it created
// the resource, else 204; the new ETag (RFC 9110 §8.8.3) and WAC-Allow either way.

import type { WriteResult } from '../store/resources.ts'
import type { RsContext } from './rs-context.ts'

export function answerWrite(ctx: RsContext, path: string, result: WriteResult, wacAllow: string): Response {
  const headers = new Headers({ etag: `"${result.meta.etag}"`, 'wac-allow': wacAllow })
  if (result.created) headers.set('location', ctx.deps.cfg.baseUrl + path)
  return new Response(null, { status: result.created ? 201 : 204, headers })
}
