// `bun run build:ui`: the browser's half of the owner's pages, bundled once from static/admin/ (TypeScript,
// its own tsconfig) into dist/ui/static/. `npm start` and `npm test` run it first; the compiled executable
// embeds what it writes. The pod never bundles on a request: it serves the file this step wrote.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { BUILT_UI_DIR, SCRIPT_ENTRIES, bundleName } from './http/static-files.ts'

const ROOT = resolve(import.meta.dir, '..')

/** One self-contained browser script: no imports left, nothing fetched from elsewhere at run time. */
async function bundleScript(path: string): Promise<string> {
  const result = await Bun.build({ entrypoints: [path], target: 'browser', minify: true, format: 'esm' })
  if (!result.success || !result.outputs[0]) throw new AggregateError(result.logs, `bundling ${path} failed`)
  return result.outputs[0].text()
}

/**
 * Bundles every script entry of `staticDir` into `outDir/static/NAME.js` (the folder name is what the
 * executable's embedded files are found under) and returns that `static` folder.
 */
export async function buildUi(staticDir: string, outDir: string): Promise<string> {
  const dir = join(outDir, 'static')
  mkdirSync(dir, { recursive: true })
  for (const entry of SCRIPT_ENTRIES) {
    if (!existsSync(join(staticDir, entry))) continue // a build of other static files (the embedding test's probe)
    const out = join(dir, bundleName(entry))
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, await bundleScript(join(staticDir, entry)))
  }
  return dir
}

if (import.meta.main) {
  const started = performance.now()
  try {
    await buildUi(join(ROOT, 'static'), dirname(BUILT_UI_DIR))
    console.log(`built the dashboard's script into ${BUILT_UI_DIR} in ${Math.round(performance.now() - started)} ms`)
  } catch (err) {
    console.error(err instanceof AggregateError ? [err.message, ...err.errors.map(String)].join('\n') : err)
    process.exit(1)
  }
}
