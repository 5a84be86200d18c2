// The UI's static files (static/): read from the source tree, or from inside the executable `bun run build` made.

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { HttpError } from './errors.ts'

/** From source this file sits at src/http/, two levels below the project root. */
const SOURCE_DIR = join(import.meta.dir, '..', '..', 'static')

/**
 * src/build-executable.ts embeds static/ with `compile.assets`; Bun names each embedded file by its
 * path below the asset directory's parent (`static/login.html`), whatever the build's cwd.
 */
const EMBEDDED_PREFIX = 'static/'

let embedded: Map<string, Blob> | undefined
function embeddedFiles(): Map<string, Blob> {
  embedded ??= new Map(
    Bun.embeddedFiles
      .map(blob => [(blob as Blob & { name: string }).name, blob] as const)
      .filter(([name]) => name.startsWith(EMBEDDED_PREFIX))
      .map(([name, blob]) => [name.slice(EMBEDDED_PREFIX.length), blob]),
  )
  return embedded
}

/** `login.html`, `admin/app.js`: plain segments only, so a name can never leave static/. */
const SAFE_NAME = /^[\w-][\w.-]*(\/[\w-][\w.-]*)*$/

/** A static file's text; 404 `not_found` for a name that is not a file below static/. */
export async function readStatic(name: string): Promise<string> {
  if (!SAFE_NAME.test(name)) throw notFound()
  if (Bun.isStandaloneExecutable) {
    const blob = embeddedFiles().get(name)
    if (!blob) throw notFound()
    return blob.text()
  }
  const file = Bun.file(join(SOURCE_DIR, name))
  if (!(await file.exists())) throw notFound()
  return file.text()
}

const notFound = () => new HttpError(404, 'not_found', 'no such static file')

/** Browser scripts of static/ written in TypeScript (`admin/app.ts`), served as one bundle each. */
export const SCRIPT_ENTRIES = ['admin/app.ts'] as const
export type ScriptEntry = (typeof SCRIPT_ENTRIES)[number]

/** `admin/app.ts` → `admin/app.js`: the name of its bundle, embedded by src/build-executable.ts. */
export const bundleName = (entry: ScriptEntry) => entry.replace(/\.ts$/, '.js')

/** Where `bun run build:ui` (src/build-ui.ts) writes the bundles when the pod runs from source. */
export const BUILT_UI_DIR = join(import.meta.dir, '..', '..', 'dist', 'ui', 'static')

const bundles = new Map<ScriptEntry, Promise<string>>()
const versions = new Map<ScriptEntry, Promise<string>>()

/**
 * The bundled script of `entry`, as the build step wrote it: embedded in the executable, or from
 * dist/ui/static/ when running from source (read once and kept: a fixed set of files).
 */
export function readBundle(entry: ScriptEntry): Promise<string> {
  let b = bundles.get(entry)
  if (!b) {
    b = Bun.isStandaloneExecutable ? readStatic(bundleName(entry)) : Bun.file(join(BUILT_UI_DIR, bundleName(entry))).text()
    bundles.set(entry, b)
    b.catch(() => bundles.delete(entry))
  }
  return b
}

/** The entries the build step has not written (from source only: the executable carries its own). */
export function unbuiltScripts(dir = BUILT_UI_DIR): string[] {
  if (Bun.isStandaloneExecutable) return []
  return SCRIPT_ENTRIES.filter(e => !existsSync(join(dir, bundleName(e))))
}

/**
 * A short digest of `entry`'s bundle (16 hex digits of its SHA-256): pages name the script with it (`?v=`), so a
 * browser can keep the script for good and still picks up a new version with the next page.
 */
export function bundleVersion(entry: ScriptEntry): Promise<string> {
  let v = versions.get(entry)
  if (!v) {
    v = readBundle(entry).then(text => new Bun.CryptoHasher('sha256').update(text).digest('hex').slice(0, 16))
    versions.set(entry, v)
    v.catch(() => versions.delete(entry))
  }
  return v
}
