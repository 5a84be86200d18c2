// Serves the test Solid app (test/browser/app/app.ts, bundled once with Bun.build) on its own
// origin, http://localhost:PORT, with the Client ID Document it can log in with.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TestApp {
  readonly origin: string
  /** Its Client ID Document's URL (Solid-OIDC §5.1: the client_id is this URL). */
  readonly clientId: string
  stop(): Promise<void>
}

let bundle: Promise<string> | undefined

/**
 * The app as one browser script, built on first use and kept for the process. `bun build` runs in
 * its own process: Bun.build inside a test process that already loaded some packages for Bun
 * resolved them to their Node builds (the bundle then failed in Chromium: "global is not defined").
 */
function bundleApp(): Promise<string> {
  bundle ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-app-'))
    try {
      const outfile = join(dir, 'app.js')
      const proc = Bun.spawn([process.execPath, 'build', join(import.meta.dir, 'app', 'app.ts'), '--target=browser', '--format=esm', `--outfile=${outfile}`], {
        stdout: 'pipe',
        stderr: 'pipe',
      })
      if ((await proc.exited) !== 0) throw new Error(`bundling the test app failed: ${await new Response(proc.stderr).text()}`)
      return await Bun.file(outfile).text()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })()
  return bundle
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>solopod test app</title>
<style>*{box-sizing:border-box}body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}
input{width:100%;padding:.4rem;font-size:1rem}button{margin:.6rem .4rem 0 0;padding:.4rem .9rem;font-size:1rem}
#error{color:#a4161a;border-left:4px solid #a4161a;padding:.4rem .8rem}</style></head>
<body><h1>solopod test app</h1>
<p id="status">Starting…</p>
<p id="error" role="alert" hidden></p>
<label for="issuer">Your Solid provider</label>
<input id="issuer" type="url" autocomplete="url">
<button id="login">Log in</button><button id="login-cid">Log in (Client ID)</button><button id="logout" hidden>Log out</button>
<script type="module" src="/app.js"></script>
</body></html>`

/** A 1×1 PNG: the logo of the Client ID Document. */
const LOGO_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

export async function startTestApp(): Promise<TestApp> {
  const script = await bundleApp()
  let origin = ''
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const { pathname } = new URL(request.url)
      if (pathname === '/') return new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } })
      if (pathname === '/logo.png') return new Response(Buffer.from(LOGO_PNG, 'base64'), { headers: { 'content-type': 'image/png' } })
      if (pathname === '/app.js') return new Response(script, { headers: { 'content-type': 'text/javascript; charset=utf-8' } })
      if (pathname === '/id.jsonld') {
        return Response.json(
          {
            '@context': 'https://www.w3.org/ns/solid/oidc-context.jsonld',
            client_id: `${origin}/id.jsonld`,
            client_name: 'solopod test app (Client ID Document)',
            client_uri: `${origin}/`,
            logo_uri: `${origin}/logo.png`,
            redirect_uris: [`${origin}/`],
            post_logout_redirect_uris: [`${origin}/`],
            scope: 'openid webid offline_access',
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          },
          { headers: { 'content-type': 'application/ld+json' } },
        )
      }
      return new Response('not found', { status: 404 })
    },
  })
  origin = `http://localhost:${server.port}`
  return { origin, clientId: `${origin}/id.jsonld`, stop: () => server.stop(true) }
}
