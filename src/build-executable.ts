// `bun run build`: one self-contained executable, dist/solopod, with static/ and the LevelDB addon inside.

import { existsSync, mkdirSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { PACKAGES_TSCONFIG } from './build-deps.ts'
import { classicLevelBinding, hostTarget, type Target } from './build-leveldb-addon.ts'
import { buildUi } from './build-ui.ts'

const ROOT = resolve(import.meta.dir, '..')

export interface BuildOptions {
  readonly entry: string
  readonly outfile: string
  /** Embedded under its own name: readStatic (src/http/static-files.ts) finds `static/NAME`. */
  readonly staticDir: string
  readonly target: Target
  /** Worker entry files (`new Worker(new URL('./x.ts', import.meta.url))`): a compiled binary holds only the entrypoints given. */
  readonly workers?: readonly string[]
  /** Bytecode compiled at build time instead of parsing the bundle at each start (docs/performance.md "Start-up"). */
  readonly bytecode?: boolean
}

export async function buildExecutable(opts: BuildOptions): Promise<{ outfile: string; bytes: number; inputs: string[] }> {
  mkdirSync(dirname(opts.outfile), { recursive: true })
  // The browser scripts, bundled next to the executable under a folder named `static`, embed as `static/admin/app.js`
  const bundled = await buildUi(opts.staticDir, join(dirname(opts.outfile), 'ui'))
  const result = await Bun.build({
    entrypoints: [opts.entry, ...(opts.workers ?? [])],
    plugins: [classicLevelBinding(opts.target)],
    // The packages themselves, not the bundles of them a checkout's starts use (build-deps.ts): one bundling, whatever
    // node_modules/.solopod-deps holds. The metafile lets a test see which.
    tsconfig: PACKAGES_TSCONFIG,
    metafile: true,
    // ESM as without bytecode (Bun's bytecode default is CommonJS): top-level await, and import.meta.url, which finds the parse worker
    format: 'esm',
    // What the pod loads on first use (`import()`) goes in chunks of its own, evaluated with that first use. In one
    // chunk, the Node built-ins those modules import (node:https and node:tls for ACME, node:zlib and node:readline
    // for archives) were imported at every start: ~20 ms of a restart's CPU (docs/performance.md "Start-up").
    splitting: true,
    bytecode: opts.bytecode ?? true,
    compile: {
      target: opts.target,
      outfile: opts.outfile,
      assets: existsSync(opts.staticDir) ? [opts.staticDir, bundled] : [bundled],
      // The pod's behaviour comes from its flags and SOLOPOD_* env, not from a bunfig.toml,
      // tsconfig.json or package.json that happens to sit in the directory it runs from.
      autoloadBunfig: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
    },
  })
  if (!result.success) throw new AggregateError(result.logs, `build of ${opts.entry} failed`)
  return { outfile: opts.outfile, bytes: statSync(opts.outfile).size, inputs: Object.keys(result.metafile?.inputs ?? {}) }
}

function parseTarget(argv: readonly string[]): Target {
  const i = argv.indexOf('--target')
  if (i < 0) return hostTarget()
  const value = argv[i + 1]
  if (!value || !/^bun-(linux|darwin)-(x64|arm64)$/.test(value))
    throw new Error('--target must be bun-linux-x64, bun-linux-arm64, bun-darwin-x64 or bun-darwin-arm64')
  return value as Target
}

if (import.meta.main) {
  const started = performance.now()
  try {
    const { outfile, bytes } = await buildExecutable({
      entry: join(ROOT, 'src', 'main.ts'),
      outfile: join(ROOT, 'dist', 'solopod'),
      staticDir: join(ROOT, 'static'),
      target: parseTarget(process.argv.slice(2)),
      workers: [join(ROOT, 'src', 'rdf', 'parse-worker.ts')],
    })
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    console.log(`built ${outfile} (${(bytes / 1024 / 1024).toFixed(1)} MB) in ${seconds} s`)
  } catch (err) {
    console.error(err instanceof AggregateError ? [err.message, ...err.errors.map(String)].join('\n') : err)
    process.exit(1)
  }
}
