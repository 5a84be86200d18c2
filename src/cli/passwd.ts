// `solopod passwd`: a new owner password (from --owner-password-file or stdin); the owner's logins end.

import { ConfigError, type Config } from '../config.ts'
import { openDataDir, readPasswordFile } from '../pod.ts'
import { setOwnerPassword } from '../account/owner-account.ts'
import { checkPasswordStrength } from '../lib/password-rules.ts'
import { endOwnerLogins } from '../account/owner-session.ts'
import { makeSessionRevocations } from '../account/app-sessions.ts'

async function readPasswordFromStdin(): Promise<string> {
  const text = await new Response(Bun.stdin.stream()).text()
  return text.replace(/\r?\n$/, '')
}

export async function passwdCommand(cfg: Config): Promise<void> {
  let ended = { logins: 0, appSessions: 0 }
  const store = await openDataDir(cfg.dataDir)
  try {
    const password = cfg.ownerPasswordFile ? readPasswordFile(cfg.ownerPasswordFile) : await readPasswordFromStdin()
    const problem = checkPasswordStrength(password)
    if (problem) throw new ConfigError(problem)
    await setOwnerPassword(store, password)
    ended = await endOwnerLogins(store, makeSessionRevocations(store), Date.now())
  } finally {
    await store.close()
  }
  console.log(`solopod: the owner's password was changed; ${ended.logins} browser login(s) and ${ended.appSessions} app session(s) started from them ended`)
}
