// `solopod keys add`: a new HttpSig key for the owner, with the pod stopped (cli/owner-keys.ts makes it).

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError, type Config } from '../config.ts'
import { openDataDir } from '../pod.ts'
import { makeDeps } from '../deps.ts'
import { getRecordedBaseUrl } from '../store/base-url.ts'
import { defaultKeyName } from '../auth/httpsig/owner-key-documents.ts'
import { addOwnerKey, KeyCommandError, writePrivateJwk } from './owner-keys.ts'

export async function keysCommand(cfg: Config): Promise<void> {
  if (cfg.args[0] !== 'add' || cfg.args.length !== 1) throw new ConfigError('usage: solopod keys add --data DIR [--name N] [--out FILE]')
  if (!existsSync(join(cfg.dataDir, 'db'))) throw new ConfigError(`${cfg.dataDir} holds no pod (start it once first, see --data)`)
  const name = cfg.keyName ?? defaultKeyName(new Date())
  const out = cfg.keyOut ?? join(cfg.dataDir, 'private-keys', `${name}.jwk`)
  if (existsSync(out)) throw new KeyCommandError(`${out} already exists; it is never overwritten (choose another --out)`)
  const store = await openDataDir(cfg.dataDir)
  let key
  try {
    const baseUrl = await getRecordedBaseUrl(store)
    if (!baseUrl) throw new ConfigError(`${cfg.dataDir} holds no pod (start it once first)`)
    // The pod is stopped: this process builds the operations layer over the store, as a running pod does (deps.ts)
    const { resources } = makeDeps({ ...cfg, baseUrl }, store, () => Date.now())
    key = await addOwnerKey({ resources, store, baseUrl }, name)
  } finally {
    await store.close()
  }
  writePrivateJwk(out, key.privateJwk)
  console.log(
    [
      `solopod: new key ${key.keyUrl} (linked from ${key.webid} with cert:key)`,
      `private JWK (keep it secret): ${out}`,
      `sign requests per RFC 9421 with keyid="${key.keyUrl}" and send: Authorization: HttpSig proof=sig1, cred="<${key.webid}>"`,
    ].join('\n'),
  )
}
