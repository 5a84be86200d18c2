// Calls from the dashboard: every one carries the CSRF token, and every refusal becomes an ApiError
// whose message says in plain words what went wrong, then what the server said; its code rides along.
import type { Violation } from '../../src/policy/grant-schema.ts'
import { plainWords } from '../../src/lib/plain-words.ts'
import { readablePathsIn } from '../../src/lib/readable-path.ts'

const root = document.getElementById('dashboard')!
export const BASE = root.dataset.base!
export const CSRF = root.dataset.csrf!

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly violations: Violation[] = [],
  ) {
    super(message)
  }
}

/**
 * Problem details (RFC 9457) for the resource server: every call to it asks for them, so a refusal's code
 * and reason are read from fields, never parsed out of text.
 */
const PROBLEM_JSON = 'application/problem+json'
const withProblemJson = (accept = '*/*') => `${accept}, ${PROBLEM_JSON}`

/**
 * The server's refusal as a readable message: the owner API's JSON `{ error, error_description, violations? }`
 * or the resource server's problem details `{ error, detail }`; anything else (a proxy's page) by its status.
 */
async function failure(res: Response, what: string): Promise<ApiError> {
  const j = ((await res.json().catch(() => null)) ?? {}) as { error?: unknown; error_description?: unknown; detail?: unknown; violations?: Violation[] }
  const code = typeof j.error === 'string' ? j.error : `http_${res.status}`
  const given = j.error_description ?? j.detail
  // Paths as people read them (`/Été/`, not `/%C3%89t%C3%A9/`), as the pages show them
  let description = typeof given === 'string' ? readablePathsIn(given) : ''
  const violations = Array.isArray(j.violations) ? j.violations : []
  if (res.status === 401) description = 'reload the page to sign in again'
  // Plain words first where the refusal is a common one, the server's own description after them; the code
  // is not in the sentence: sayError shows it small beside it (err.code), as the pages do.
  const plain = plainWords(res.status, code)
  const said = description || res.statusText
  return new ApiError(res.status, code, `${what} failed: ${[plain, said && plain ? `(${said})` : said].filter(Boolean).join(' ')}`, violations)
}

export const headers = (extra: Record<string, string> = {}) => ({ 'x-csrf-token': CSRF, ...extra })

/** The owner API under /.admin/api, as JSON. */
export async function api<T>(method: string, path: string, body?: unknown, what = `${method} ${path}`): Promise<T> {
  let res: Response
  try {
    res = await fetch(`${BASE}/.admin/api${path}`, {
      method,
      credentials: 'same-origin',
      headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  } catch (err) {
    throw new ApiError(0, 'network', `${what} failed: the pod did not answer (${String(err)})`)
  }
  if (!res.ok) throw await failure(res, what)
  return (res.status === 204 ? undefined : await res.json()) as T
}

/** The resource server (LDP), as the owner; `what` names the action in any error message. */
export async function ldp(
  method: string,
  url: string,
  init: { headers?: Record<string, string>; body?: BodyInit } = {},
  what = `${method} ${url}`,
): Promise<Response> {
  let res: Response
  try {
    const accept = withProblemJson(init.headers?.accept)
    res = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: headers({ ...init.headers, accept }),
      ...(init.body === undefined ? {} : { body: init.body }),
    })
  } catch (err) {
    throw new ApiError(0, 'network', `${what} failed: the pod did not answer (${String(err)})`)
  }
  if (!res.ok) throw await failure(res, what)
  return res
}

/**
 * PUT with upload progress: fetch() cannot report it, XMLHttpRequest's upload events can.
 * Resolves on 2xx, rejects with an ApiError naming the server's reason otherwise.
 */
export function putWithProgress(
  url: string,
  body: Blob,
  contentType: string,
  onProgress: (sent: number, total: number) => void,
  what: string,
  onlyNew = false,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', url)
    xhr.setRequestHeader('x-csrf-token', CSRF)
    xhr.setRequestHeader('content-type', contentType)
    xhr.setRequestHeader('accept', withProblemJson())
    // RFC 9110 §13.1.2: If-None-Match: * — the PUT fails with 412 rather than replace an existing file
    if (onlyNew) xhr.setRequestHeader('if-none-match', '*')
    xhr.upload.onprogress = e => {
      if (e.lengthComputable) onProgress(e.loaded, e.total)
    }
    xhr.onerror = () => reject(new ApiError(0, 'network', `${what} failed: the connection broke`))
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(body.size, body.size)
        resolve()
        return
      }
      void failure(new Response(xhr.responseText, { status: xhr.status, statusText: xhr.statusText }), what).then(reject)
    }
    xhr.send(body)
  })
}
