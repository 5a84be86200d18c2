// `bun src/build-deps.ts`: the libraries a start loads, each bundled into one file (node_modules/.solopod-deps/).
// From source, Bun reads, transpiles and parses every module a start reaches: Elysia with the whole of TypeBox is 278
// modules, jose 46, quadstore with its own 31, classic-level with abstract-level 33. One file each parses in about half
// the CPU and holds less memory (docs/performance.md "Start-up", seventh pass), as a bundler's dev server pre-bundles
// dependencies. tsconfig.json's `paths` send each specifier to its file, and Bun and TypeScript fall back to the package
// itself while the file is absent (a checkout where no script has run yet). `npm install`, `npm start`, `npm test`,
// `npm run test:unit`, `npm run solopod`, the bench and the soak run this first; it rebuilds only when what it bundled
// changed.
// The executable (build-executable.ts) bundles the packages themselves (tsconfig.packages.json has no `paths`).

import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { classicLevelBinding, hostTarget } from './build-leveldb-addon.ts'

const ROOT = resolve(import.meta.dir, '..')
/** Where the bundles go: inside node_modules, so that `npm ci` (which removes it) never leaves them stale. */
export const DEPS_DIR = join(ROOT, 'node_modules', '.solopod-deps')
/** The project's tsconfig without `paths`: what the bundles are made from is the packages, never an older bundle. */
export const PACKAGES_TSCONFIG = join(ROOT, 'tsconfig.packages.json')
/** Bump when the way bundles are made changes, so that every checkout makes them again. */
const FORMAT = 1

/** Each specifier the pod's modules import at start and the file its bundle is (tsconfig.json maps one to the other). */
export const PREBUNDLED: Readonly<Record<string, string>> = {
  elysia: 'elysia',
  '@sinclair/typebox': 'typebox',
  '@sinclair/typebox/value': 'typebox-value',
  jose: 'jose',
  'structured-headers': 'structured-headers',
  quadstore: 'quadstore',
  'quadstore/dist/serialization/patterns.js': 'quadstore-patterns',
  'quadstore/dist/serialization/quads.js': 'quadstore-quads',
  // with its addon copied beside it (build-leveldb-addon.ts), built for this machine
  'classic-level': 'classic-level',
}

/** What a set of bundles was made from: when any of it differs, they are made again. */
export interface DepsManifest {
  readonly format: number
  readonly bun: string
  /** The machine the addon beside them is for. */
  readonly target: string
  readonly specifiers: readonly string[]
  /** Every package a bundle holds code of (its folder under the project), with the version it had. */
  readonly packages: Readonly<Record<string, string>>
}

/** The package folder (…/node_modules/name or …/node_modules/@scope/name) a bundled file belongs to. */
export function packageDirOf(file: string): string | undefined {
  const match = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(file)
  return match?.[1]
}

function versionOf(packageDir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version?: string }).version
  } catch {
    return undefined
  }
}

function readManifest(dir: string): DepsManifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as DepsManifest
  } catch {
    return undefined
  }
}

/** Whether the bundles in `dir` were made by this Bun, for these specifiers, from the packages as installed now. */
export function bundlesAreCurrent(dir: string, root = ROOT): boolean {
  const manifest = readManifest(dir)
  if (manifest?.format !== FORMAT || manifest.bun !== Bun.version || manifest.target !== hostTarget()) return false
  if (!Array.isArray(manifest.specifiers) || manifest.specifiers.join('\n') !== Object.keys(PREBUNDLED).join('\n')) return false
  if (!Object.values(PREBUNDLED).every(file => existsSync(join(dir, `${file}.js`)))) return false
  return Object.entries(manifest.packages ?? {}).every(([packageDir, version]) => versionOf(join(root, packageDir)) === version)
}

interface PackageJson {
  readonly exports?: unknown
  readonly types?: string
  readonly typings?: string
  readonly module?: string
  readonly main?: string
}

/** A specifier's package (`@scope/name` or `name`) and the path inside it (`['value']` of `@sinclair/typebox/value`). */
export function packageOf(specifier: string): { name: string; rest: string[] } {
  const parts = specifier.split('/')
  const length = specifier.startsWith('@') ? 2 : 1
  return { name: parts.slice(0, length).join('/'), rest: parts.slice(length) }
}

/**
 * The file TypeScript reads a specifier's types from, as it would find them in the package: the `types` condition of
 * the package's export of it, else the package's `types` (for its main export), else the declaration beside the file
 * its `import` condition (or the subpath itself) names.
 */
export function typesOf(specifier: string, root = ROOT): string {
  const { name, rest } = packageOf(specifier)
  const packageDir = join(root, 'node_modules', name)
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as PackageJson
  const subpath = rest.length === 0 ? '.' : `./${rest.join('/')}`
  const entry = exportOf(manifest.exports, subpath)
  const main = subpath === '.' ? (manifest.module ?? manifest.main) : subpath
  const types =
    condition(entry, 'types') ??
    (subpath === '.' ? (manifest.types ?? manifest.typings) : undefined) ??
    (condition(entry, 'import') ?? main)?.replace(/\.([cm]?)js$/, '.d.$1ts')
  if (!types || !existsSync(join(packageDir, types))) throw new Error(`no types for ${specifier} in ${packageDir}`)
  return join(packageDir, types)
}

/** A package's export of `subpath`: `exports` is either keyed by subpaths or, for the main export alone, its conditions. */
function exportOf(exports: unknown, subpath: string): unknown {
  if (typeof exports === 'string') return subpath === '.' ? exports : undefined
  if (exports === null || typeof exports !== 'object') return undefined
  const bySubpath = Object.keys(exports).some(key => key.startsWith('.'))
  if (bySubpath) return (exports as Record<string, unknown>)[subpath]
  return subpath === '.' ? exports : undefined
}

/** The file a condition names in an export, looking through nested conditions (`import` before `default`, `require`). */
function condition(entry: unknown, name: 'types' | 'import'): string | undefined {
  if (typeof entry === 'string') return name === 'import' ? entry : undefined
  if (entry === null || typeof entry !== 'object') return undefined
  const conditions = entry as Record<string, unknown>
  if (typeof conditions[name] === 'string') return conditions[name]
  for (const key of ['import', 'default', 'require']) {
    const found = condition(conditions[key], name)
    if (found) return found
  }
  return undefined
}

/**
 * Bundles every specifier of PREBUNDLED into `dir` (one file each; code two of them share in a chunk beside them), with
 * a declaration file that gives TypeScript the package's own types, and the manifest. Made in a folder beside `dir` and
 * swapped in, so that a start never sees half of them.
 */
export async function buildDeps(dir = DEPS_DIR, root = ROOT): Promise<DepsManifest> {
  // The entries sit in the project's node_modules, where the specifiers resolve; the bundles go beside `dir`
  const entries = join(root, 'node_modules', `.solopod-deps-entries-${process.pid}`)
  const out = `${dir}.making-${process.pid}`
  const old = `${dir}.old-${process.pid}`
  for (const folder of [entries, out, old]) rmSync(folder, { recursive: true, force: true })
  try {
    mkdirSync(entries, { recursive: true })
    const entrypoints = Object.entries(PREBUNDLED).map(([specifier, file]) => {
      const path = join(entries, `${file}.ts`)
      writeFileSync(path, `export * from ${JSON.stringify(specifier)}\n`)
      return path
    })
    const result = await Bun.build({
      entrypoints,
      outdir: out,
      // each bundle at the top of the folder, named as its entry, whatever else (the addon) comes from elsewhere
      root: entries,
      target: 'bun',
      format: 'esm',
      splitting: true,
      plugins: [classicLevelBinding(hostTarget())],
      tsconfig: PACKAGES_TSCONFIG,
      metafile: true,
    })
    if (!result.success || !result.metafile) throw new AggregateError(result.logs, 'bundling the dependencies failed')
    const packages: Record<string, string> = {}
    for (const input of Object.keys(result.metafile.inputs)) {
      const packageDir = packageDirOf(resolve(input)) // the metafile's paths are the working directory's
      const version = packageDir && versionOf(packageDir)
      if (packageDir && version) packages[relative(root, packageDir)] = version
    }
    for (const [specifier, file] of Object.entries(PREBUNDLED)) {
      // `x.js` for `x.d.ts` (and `.mjs` for `.d.mts`), as TypeScript wants a module named by its JavaScript file
      const types = relative(dir, typesOf(specifier, root)).replace(/\.d\.([cm]?)ts$/, '.$1js')
      // Named exports only: the pod imports no default from these (a default import would fail the type check).
      writeFileSync(join(out, `${file}.d.ts`), `export * from ${JSON.stringify(types)}\n`)
    }
    const manifest: DepsManifest = { format: FORMAT, bun: Bun.version, target: hostTarget(), specifiers: Object.keys(PREBUNDLED), packages }
    writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
    if (existsSync(dir)) renameSync(dir, old)
    renameSync(out, dir)
    return manifest
  } finally {
    for (const folder of [entries, out, old]) rmSync(folder, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const started = performance.now()
  try {
    if (bundlesAreCurrent(DEPS_DIR)) process.exit(0)
    mkdirSync(dirname(DEPS_DIR), { recursive: true })
    const manifest = await buildDeps()
    const count = Object.keys(manifest.packages).length
    console.log(`bundled ${count} packages into ${relative(ROOT, DEPS_DIR)} in ${Math.round(performance.now() - started)} ms`)
  } catch (err) {
    // The pod runs without the bundles, from the packages (slower to start): no stale bundle may stay in their place,
    // and neither `npm install` nor `npm start` fails for it. A test run makes them itself and fails there.
    rmSync(DEPS_DIR, { recursive: true, force: true })
    console.error(err instanceof AggregateError ? [err.message, ...err.errors.map(String)].join('\n') : err)
    console.error('could not bundle the libraries: the pod loads them from their packages, which starts slower')
  }
}
