// src/build-deps.ts: the libraries a start loads, one bundle each, found through tsconfig.json's paths; the packages
// themselves while a bundle is absent; made again when what it holds changed.

import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { DEPS_DIR, PREBUNDLED, buildDeps, bundlesAreCurrent, packageDirOf, packageOf, typesOf, type DepsManifest } from '../src/build-deps.ts'

const ROOT = resolve(import.meta.dir, '..')
const work = mkdtempSync(join(tmpdir(), 'solopod-build-deps-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('tsconfig.json', () => {
  test('maps each prebundled specifier to its bundle, and nothing else', () => {
    const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } }
    const expected = Object.fromEntries(Object.entries(PREBUNDLED).map(([specifier, file]) => [specifier, [`./${relative(ROOT, join(DEPS_DIR, file))}`]]))
    expect(tsconfig.compilerOptions.paths).toEqual(expected)
  })

  test('the packages tsconfig is the same without paths', () => {
    const packages = JSON.parse(readFileSync(join(ROOT, 'tsconfig.packages.json'), 'utf8')) as Record<string, unknown>
    expect(packages).toMatchObject({ extends: './tsconfig.json', compilerOptions: { paths: {} } })
  })
})

describe('resolution through the paths', () => {
  // Bun's own behaviour, which the pod relies on: a mapped file that is absent falls back to the package.
  test('a specifier is the bundle when it exists and the package when it does not', () => {
    // Two projects: Bun's resolver keeps what it found for a folder
    const project = (name: string, bundled: boolean) => {
      const dir = join(work, name)
      mkdirSync(join(dir, 'node_modules', 'lib'), { recursive: true })
      mkdirSync(join(dir, 'src'))
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { paths: { lib: ['./node_modules/.solopod-deps/lib'] } } }))
      writeFileSync(join(dir, 'node_modules', 'lib', 'package.json'), JSON.stringify({ name: 'lib', main: 'index.js' }))
      writeFileSync(join(dir, 'node_modules', 'lib', 'index.js'), 'export const from = "package"\n')
      if (bundled) {
        mkdirSync(join(dir, 'node_modules', '.solopod-deps'))
        writeFileSync(join(dir, 'node_modules', '.solopod-deps', 'lib.js'), 'export const from = "bundle"\n')
        writeFileSync(join(dir, 'node_modules', '.solopod-deps', 'lib.d.ts'), 'export declare const from: string\n')
      }
      return dir
    }
    const without = project('without', false)
    expect(Bun.resolveSync('lib', join(without, 'src'))).toBe(join(without, 'node_modules', 'lib', 'index.js'))
    const bundled = project('bundled', true)
    expect(Bun.resolveSync('lib', join(bundled, 'src'))).toBe(join(bundled, 'node_modules', '.solopod-deps', 'lib.js'))
  })
})

describe('typesOf', () => {
  test('finds each kind of package the pod bundles', () => {
    const modules = join(ROOT, 'node_modules')
    // a `types` condition in an export keyed by subpath
    expect(typesOf('jose')).toBe(join(modules, 'jose', 'dist', 'types', 'index.d.ts'))
    // exports that are the main export's conditions alone, none of them `types`: the declaration beside `import`'s file
    expect(typesOf('structured-headers')).toBe(join(modules, 'structured-headers', 'dist', 'index.d.ts'))
    // a subpath export whose `types` is under `import`
    expect(typesOf('@sinclair/typebox/value')).toMatch(/@sinclair\/typebox\/build\/esm\/value\/index\.d\.mts$/)
    // a file of a package without exports: the declaration beside it
    expect(typesOf('quadstore/dist/serialization/quads.js')).toBe(join(modules, 'quadstore', 'dist', 'serialization', 'quads.d.ts'))
  })

  test('says which specifier has no types', () => {
    expect(() => typesOf('quadstore/dist/no-such-file.js')).toThrow('no types for quadstore/dist/no-such-file.js')
  })
})

test('packageOf splits a specifier into its package and the path inside it', () => {
  expect(packageOf('jose')).toEqual({ name: 'jose', rest: [] })
  expect(packageOf('@sinclair/typebox/value')).toEqual({ name: '@sinclair/typebox', rest: ['value'] })
  expect(packageOf('quadstore/dist/serialization/quads.js')).toEqual({ name: 'quadstore', rest: ['dist', 'serialization', 'quads.js'] })
})

test('packageDirOf names the package folder of a file, scoped, unscoped or nested', () => {
  expect(packageDirOf('/p/node_modules/jose/dist/webapi/index.js')).toBe('/p/node_modules/jose')
  expect(packageDirOf('/p/node_modules/@sinclair/typebox/build/esm/index.mjs')).toBe('/p/node_modules/@sinclair/typebox')
  expect(packageDirOf('/p/node_modules/elysia/node_modules/cookie/dist/index.js')).toBe('/p/node_modules/elysia/node_modules/cookie')
  expect(packageDirOf('/p/src/app.ts')).toBeUndefined()
})

describe('buildDeps', () => {
  const dir = join(work, 'deps')

  test('writes each bundle, its types and the manifest, and they are current', async () => {
    const manifest = await buildDeps(dir)
    for (const file of Object.values(PREBUNDLED)) {
      expect(existsSync(join(dir, `${file}.js`))).toBe(true)
      expect(existsSync(join(dir, `${file}.d.ts`))).toBe(true)
    }
    expect(manifest.specifiers).toEqual(Object.keys(PREBUNDLED))
    expect(manifest.bun).toBe(Bun.version)
    expect(Object.keys(manifest.packages)).toEqual(
      expect.arrayContaining(['node_modules/elysia', 'node_modules/@sinclair/typebox', 'node_modules/jose', 'node_modules/quadstore']),
    )
    const elysia = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'elysia', 'package.json'), 'utf8')) as { version: string }
    expect(manifest.packages['node_modules/elysia']).toBe(elysia.version)
    // The declaration points at the package's own types, from where the bundle is
    expect(readFileSync(join(dir, 'jose.d.ts'), 'utf8')).toBe(
      `export * from "${relative(dir, join(ROOT, 'node_modules', 'jose', 'dist', 'types', 'index.js'))}"\n`,
    )
    expect(bundlesAreCurrent(dir)).toBe(true)
    // Nothing of the folders it was made in is left
    expect(existsSync(`${dir}.making-${process.pid}`)).toBe(false)
    expect(existsSync(join(ROOT, 'node_modules', `.solopod-deps-entries-${process.pid}`))).toBe(false)
  })

  test('the bundles export what the packages export', async () => {
    const bundled = await import(join(dir, 'jose.js'))
    const jose = await import(join(ROOT, 'node_modules', 'jose', 'dist', 'webapi', 'index.js'))
    expect(Object.keys(bundled).sort()).toEqual(Object.keys(jose).sort())
    const headers = (await import(join(dir, 'structured-headers.js'))) as typeof import('structured-headers')
    expect(headers.serializeDictionary(new Map([['a', [1, new Map()]]]))).toBe('a=1')
    // LevelDB's addon, copied beside its bundle, loads from there
    const { ClassicLevel } = (await import(join(dir, 'classic-level.js'))) as typeof import('classic-level')
    const db = new ClassicLevel<string, string>(join(work, 'leveldb'))
    await db.put('Été #1', 'ü')
    expect(await db.get('Été #1')).toBe('ü')
    await db.close()
  })

  test('are not current once a package, Bun, the list or a file differs', () => {
    const manifestFile = join(dir, 'manifest.json')
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as DepsManifest
    const write = (changed: DepsManifest) => writeFileSync(manifestFile, JSON.stringify(changed))
    try {
      write({ ...manifest, packages: { ...manifest.packages, 'node_modules/elysia': '0.0.1' } })
      expect(bundlesAreCurrent(dir)).toBe(false)
      write({ ...manifest, bun: '0.0.1' })
      expect(bundlesAreCurrent(dir)).toBe(false)
      write({ ...manifest, specifiers: manifest.specifiers.slice(1) })
      expect(bundlesAreCurrent(dir)).toBe(false)
      write({ ...manifest, format: manifest.format + 1 })
      expect(bundlesAreCurrent(dir)).toBe(false)
      write(manifest)
      expect(bundlesAreCurrent(dir)).toBe(true)
      rmSync(join(dir, 'quadstore.js'))
      expect(bundlesAreCurrent(dir)).toBe(false)
    } finally {
      write(manifest)
    }
    expect(bundlesAreCurrent(join(work, 'none'))).toBe(false)
    // a manifest that is not one is not current (and does not throw)
    writeFileSync(manifestFile, JSON.stringify({ format: manifest.format, bun: manifest.bun, target: manifest.target }))
    expect(bundlesAreCurrent(dir)).toBe(false)
    write(manifest)
  })

  test('made again, replaces the folder as a whole', async () => {
    writeFileSync(join(dir, 'left-over.js'), '')
    await buildDeps(dir)
    expect(existsSync(join(dir, 'left-over.js'))).toBe(false)
    expect(bundlesAreCurrent(dir)).toBe(true)
  })
})
