// Sends exactly the bytes given over a loopback socket and reads the whole answer: requests fetch() would not send.

export interface RawResponse {
  readonly status: number
  readonly headers: Map<string, string>
  readonly body: string
  readonly raw: string
}

/** One HTTP/1.1 exchange with `Connection: close`; rejects after `timeoutMs` without an answer. */
export function sendRaw(port: number, request: string | Uint8Array, timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = []
    const timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    const finish = () => {
      clearTimeout(timer)
      // interim 1xx answers (100 Continue) come before the final one
      const raw = new TextDecoder().decode(Buffer.concat(chunks)).replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '')
      const end = raw.indexOf('\r\n\r\n')
      const [statusLine = '', ...lines] = raw.slice(0, end < 0 ? raw.length : end).split('\r\n')
      const headers = new Map(lines.map(l => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as const))
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: end < 0 ? '' : raw.slice(end + 4), raw })
    }
    Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        open(s) {
          s.write(request)
          s.flush()
        },
        data(_s, d) {
          chunks.push(new Uint8Array(d))
        },
        close: finish,
        error(_s, e) {
          clearTimeout(timer)
          reject(e)
        },
      },
    }).catch(reject)
  })
}

/** A request with the given head lines (no Host added) and body, Content-Length set, Connection: close. */
export function rawRequest(method: string, target: string, headers: readonly string[], body = ''): Uint8Array {
  const bytes = new TextEncoder().encode(body)
  const head = [`${method} ${target} HTTP/1.1`, ...headers, `Content-Length: ${bytes.byteLength}`, 'Connection: close', '', ''].join('\r\n')
  return Buffer.concat([new TextEncoder().encode(head), bytes])
}
