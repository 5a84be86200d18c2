// One HTTP/1.1 PUT of bytes in memory over a connection of its own, the body written to the socket straight from the
// caller's buffer. Bun's fetch copies a body into a buffer it allocates per request (a Uint8Array and a stream's
// chunks alike: checked by changing the bytes after the call), and for 8 MiB parts that copy and the page faults of
// each new buffer were a quarter of the pod's JS thread during an upload into the bucket (s3-blob-store.ts). Bun's
// sockets do not buffer: `write` sends what the kernel takes and says how much, the rest waits for `drain`.

export interface PutAnswer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/**
 * PUTs `body` to `url` with `headers` (signed already, with the body's length); resolves with the answer once the
 * server has closed the connection (`Connection: close`: one request per connection, so the answer's end is the
 * connection's). `signal` cuts the connection; a connection that fails or closes without an answer rejects.
 */
export function socketPut(url: URL, headers: Headers, body: Uint8Array, signal: AbortSignal): Promise<PutAnswer> {
  const tls = url.protocol === 'https:'
  const port = Number(url.port || (tls ? 443 : 80))
  let head = `PUT ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\nconnection: close\r\ncontent-length: ${body.byteLength}\r\n`
  headers.forEach((value, name) => {
    if (name !== 'host' && name !== 'connection' && name !== 'content-length') head += `${name}: ${value}\r\n`
  })
  const start = new TextEncoder().encode(`${head}\r\n`)
  return new Promise<PutAnswer>((resolve, reject) => {
    const received: Uint8Array[] = []
    let sentHead = 0
    let sentBody = 0
    let settled = false
    let socket: Bun.Socket | undefined
    const fail = (err: unknown) => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', cut)
      socket?.terminate()
      reject(err instanceof Error ? err : new Error(String(err)))
    }
    const cut = () => fail(signal.reason ?? new Error('cut'))
    if (signal.aborted) return cut()
    signal.addEventListener('abort', cut, { once: true })
    /** Writes what the kernel takes now; `drain` calls again for the rest. */
    const pump = (s: Bun.Socket) => {
      while (sentHead < start.byteLength) {
        const n = s.write(start, sentHead, start.byteLength - sentHead)
        if (n <= 0) return
        sentHead += n
      }
      while (sentBody < body.byteLength) {
        const n = s.write(body, sentBody, body.byteLength - sentBody)
        if (n <= 0) return
        sentBody += n
      }
    }
    const answered = () => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', cut)
      try {
        resolve(parseAnswer(Buffer.concat(received)))
      } catch (err) {
        reject(err)
      }
    }
    Bun.connect({
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port,
      ...(tls ? { tls: { serverName: url.hostname } } : {}),
      socket: {
        open(s) {
          socket = s
          if (settled) return void s.terminate()
          pump(s)
        },
        drain: pump,
        // Without it a certificate the system does not trust would read as a connection closed without an answer.
        handshake(_, verified, problem) {
          if (!verified) fail(new Error(`the TLS connection to ${url.host} was refused: ${problem?.message || 'its certificate is not trusted'}`))
        },
        data(_, chunk) {
          received.push(new Uint8Array(chunk))
        },
        close: answered,
        end: s => void s.end(),
        error: (_, err) => fail(err),
        connectError: (_, err) => fail(err),
      },
    }).catch(fail)
  })
}

/** The status, headers and body of one HTTP/1.1 answer (its body whole or chunked). */
function parseAnswer(bytes: Buffer): PutAnswer {
  const end = bytes.indexOf('\r\n\r\n')
  if (end < 0) throw new Error('the connection closed before an answer')
  const [statusLine = '', ...lines] = bytes.toString('latin1', 0, end).split('\r\n')
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1])
  if (!Number.isInteger(status)) throw new Error(`not an HTTP answer: ${statusLine.slice(0, 40)}`)
  const headers = new Headers()
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
  }
  let body = bytes.subarray(end + 4)
  if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) body = unchunk(body)
  else if (headers.has('content-length')) body = body.subarray(0, Number(headers.get('content-length')))
  return { status, headers, text: body.toString('utf8') }
}

function unchunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = []
  for (let at = 0; at < bytes.byteLength; ) {
    const line = bytes.indexOf('\r\n', at)
    if (line < 0) break
    const size = Number.parseInt(bytes.toString('latin1', at, line), 16)
    if (!(size > 0)) break
    parts.push(bytes.subarray(line + 2, line + 2 + size))
    at = line + 2 + size + 2
  }
  return Buffer.concat(parts)
}
