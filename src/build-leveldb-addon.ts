// classic-level's addon in a bundle: the executable (build-executable.ts) embeds it, the libraries' bundles for starts
// from source (build-deps.ts) copy it beside them.

import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { BunPlugin } from 'bun'

export type Target = 'bun-linux-x64' | 'bun-linux-arm64' | 'bun-darwin-x64' | 'bun-darwin-arm64'

/** classic-level ships prebuilt addons; the folder name follows prebuildify's platform-arch. */
function prebuildOf(target: Target): string {
  const [, platform, arch] = target.split('-') as [string, string, string]
  const folder = platform === 'darwin' ? 'darwin-x64+arm64' : `${platform}-${arch}`
  return `./prebuilds/${folder}/classic-level.node`
}

/**
 * classic-level's binding.js asks node-gyp-build for the addon at run time, which searches `__dirname`: in a bundle,
 * the bundle's folder (and in the executable, a path in the build machine's node_modules, absent where it runs).
 * Answering binding.js with a static require of the prebuilt addon lets Bun embed the .node file in the executable,
 * or copy it beside a bundle and load it from there.
 */
export function classicLevelBinding(target: Target): BunPlugin {
  return {
    name: 'classic-level-binding',
    setup(build) {
      build.onLoad({ filter: /[\\/]classic-level[\\/]binding\.js$/ }, ({ path }) => {
        const addon = prebuildOf(target)
        if (!existsSync(join(dirname(path), addon))) throw new Error(`classic-level has no prebuilt addon ${addon} for ${target}`)
        return { loader: 'js', contents: `module.exports = require(${JSON.stringify(addon)})\n` }
      })
    },
  }
}

export function hostTarget(): Target {
  const target = `bun-${process.platform}-${process.arch}`
  if (!['bun-linux-x64', 'bun-linux-arm64', 'bun-darwin-x64', 'bun-darwin-arm64'].includes(target)) {
    throw new Error(`no build target for ${process.platform}-${process.arch}; use --target`)
  }
  return target as Target
}
