// A real Ceph RADOS Gateway on loopback for the object-store tests: one monitor, one OSD (memstore: RAM only)
// and radosgw with the beast frontend, in a temporary directory, without systemd and without a manager (S3 needs
// none). Facts and pitfalls: ../shared/reference/s3-engines.md. Run alone (`bun test/s3/ceph-rgw.ts`) it starts an
// engine, prints how to reach it and stops it on Ctrl-C.

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { S3Client, type Subprocess } from 'bun'
import { freePort } from '../free-port.ts'

const BINARIES = ['/usr/bin/ceph-mon', '/usr/bin/ceph-osd', '/usr/bin/radosgw', '/usr/bin/ceph', '/usr/bin/radosgw-admin', '/usr/bin/monmaptool']

/** Why the engine cannot run here (its packages are missing), in words; undefined when it can. */
export function cephNotInstalled(): string | undefined {
  const missing = BINARIES.filter(b => !existsSync(b))
  return missing.length === 0 ? undefined : `Ceph RGW is not installed (missing ${missing.join(', ')}; apt-get install ceph-mon ceph-osd radosgw ceph-common)`
}

/** The S3 tests' one line when they skip; undefined when the engine can run. */
export function cephMissing(): string | undefined {
  const why = cephNotInstalled()
  return why === undefined ? undefined : `S3 tests skipped: ${why}`
}

export interface CephRgw {
  readonly endpoint: string
  readonly bucket: string
  readonly accessKeyId: string
  readonly secretAccessKey: string
  /** A client of the test bucket, for looking behind the pod's back. */
  readonly client: S3Client
  /** Stops radosgw alone (the engine "down"); `startGateway` brings it back on the same port (nothing when it runs). */
  stopGateway(): Promise<void>
  startGateway(): Promise<void>
  stop(): Promise<void>
}

const ACCESS_KEY = 'AKIASOLOPODTEST00001'
const SECRET_KEY = 'solopodTestSecretKey0000000000000000000000'

async function run(cmd: string[], env?: Record<string, string>): Promise<string> {
  const p = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', ...(env ? { env: { ...process.env, ...env } } : {}) })
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited])
  if (code !== 0) throw new Error(`${cmd.join(' ')} exited ${code}: ${err.trim() || out.trim()}`)
  return out
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms
  let last: unknown
  while (Date.now() < deadline) {
    try {
      const v = await probe()
      if (v !== undefined) return v
    } catch (err) {
      last = err
    }
    await Bun.sleep(100)
  }
  throw new Error(`Ceph: ${what} not ready after ${ms} ms${last ? `: ${String(last)}` : ''}`)
}

async function stopProcess(p: Subprocess | undefined): Promise<void> {
  if (!p || p.exitCode !== null || p.signalCode !== null) return
  p.kill('SIGTERM')
  const done = await Promise.race([p.exited.then(() => true), Bun.sleep(5000).then(() => false)])
  if (!done) {
    p.kill('SIGKILL')
    await p.exited
  }
}

/** The OSD keeps objects in RAM (memstore) up to this much: a 2 GiB file and the smaller tests' files fit. */
const MEMSTORE_BYTES = 3 * 1024 ** 3

/** Starts the engine and makes the test bucket and its keys; about 10 s. `memstoreBytes`: room for more than 3 GiB. */
export async function startCephRgw({ memstoreBytes = MEMSTORE_BYTES }: { memstoreBytes?: number } = {}): Promise<CephRgw> {
  const dir = mkdtempSync(join(tmpdir(), 'solopod-ceph-'))
  const monPort = await freePort()
  const rgwPort = await freePort()
  // The OSD's messenger ports, in a band of their own (ms bind msgr1 = false: one v2 port per use).
  const band = 20_000 + Math.floor(Math.random() * 40_000)
  const conf = join(dir, 'ceph.conf')
  const fsid = crypto.randomUUID()
  for (const d of ['mon/ceph-a', 'osd/ceph-0', 'run', 'log']) mkdirSync(join(dir, d), { recursive: true })
  writeFileSync(
    conf,
    `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${monPort}
mon initial members = a
public network = 127.0.0.0/8
ms bind msgr1 = false
ms bind port min = ${band}
ms bind port max = ${band + 20}
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
osd pool default pg num = 8
osd pool default pgp num = 8
mon max pg per osd = 1000
mon warn on pool no redundancy = false
paxos propose interval = 0.1
osd objectstore = memstore
memstore device bytes = ${memstoreBytes}
osd crush chooseleaf type = 0
run dir = ${dir}/run
log file = ${dir}/log/$name.log
admin socket = ${dir}/run/$name.asok
keyring = ${dir}/keyring
mon data = ${dir}/mon/$cluster-$id
osd data = ${dir}/osd/$cluster-$id
rgw gc obj min wait = 1
rgw gc processor period = 5
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${dir}/rgw
`,
  )
  const procs: Subprocess[] = []
  // A test process that ends without stop() (a crash, a timeout) must not leave daemons behind.
  const killAll = () => {
    for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL')
  }
  process.once('exit', killAll)
  const daemon = (cmd: string[]) => {
    const p = Bun.spawn(cmd, { stdout: 'ignore', stderr: 'ignore' })
    procs.push(p)
    return p
  }
  let rgw: Subprocess | undefined
  const startGateway = async () => {
    if (rgw && rgw.exitCode === null && rgw.signalCode === null) return
    rgw = daemon(['/usr/bin/radosgw', '-f', '-c', conf, '-n', 'client.rgw.a'])
    await until('radosgw', 30_000, async () => ((await fetch(`http://127.0.0.1:${rgwPort}/`)).status > 0 ? true : undefined))
  }
  const stop = async () => {
    process.off('exit', killAll)
    for (const p of procs.toReversed()) await stopProcess(p)
    if (!process.env.SOLOPOD_KEEP_CEPH) rmSync(dir, { recursive: true, force: true })
  }
  try {
    // One keyring for every daemon and client (cephx: without it radosgw is refused by the monitor), imported
    // into the monitor's database by its mkfs, so no key is added later.
    const keyring = join(dir, 'keyring')
    await run(['/usr/bin/ceph-authtool', '--create-keyring', keyring, '--gen-key', '-n', 'mon.', '--cap', 'mon', 'allow *'])
    await run([
      '/usr/bin/ceph-authtool',
      keyring,
      '--gen-key',
      '-n',
      'client.admin',
      '--cap',
      'mon',
      'allow *',
      '--cap',
      'osd',
      'allow *',
      '--cap',
      'mgr',
      'allow *',
    ])
    await run(['/usr/bin/ceph-authtool', keyring, '--gen-key', '-n', 'osd.0', '--cap', 'mon', 'allow profile osd', '--cap', 'osd', 'allow *'])
    await run(['/usr/bin/ceph-authtool', keyring, '--gen-key', '-n', 'client.rgw.a', '--cap', 'mon', 'allow rw', '--cap', 'osd', 'allow rwx'])
    await run(['/usr/bin/monmaptool', '--create', '--fsid', fsid, '--addv', 'a', `[v2:127.0.0.1:${monPort}]`, join(dir, 'monmap')])
    await run(['/usr/bin/ceph-mon', '-c', conf, '--mkfs', '-i', 'a', '--monmap', join(dir, 'monmap'), '--keyring', keyring])
    daemon(['/usr/bin/ceph-mon', '-f', '-c', conf, '-i', 'a'])
    const ceph = (...args: string[]) => run(['/usr/bin/ceph', '-c', conf, '--connect-timeout', '5', ...args])
    await until('monitor', 30_000, async () => ((await ceph('mon', 'stat')) ? true : undefined))
    const osdUuid = crypto.randomUUID()
    const id = (await ceph('osd', 'new', osdUuid)).trim()
    await run(['/usr/bin/ceph-osd', '-c', conf, '-i', id, '--mkfs', '--osd-uuid', osdUuid])
    daemon(['/usr/bin/ceph-osd', '-f', '-c', conf, '-i', id])
    await until('OSD', 30_000, async () => (/1 up/.test(await ceph('osd', 'stat')) ? true : undefined))
    await startGateway()
    await run([
      '/usr/bin/radosgw-admin',
      '-c',
      conf,
      'user',
      'create',
      '--uid=solopod',
      '--display-name=solopod tests',
      `--access-key=${ACCESS_KEY}`,
      `--secret=${SECRET_KEY}`,
    ])
    const endpoint = `http://127.0.0.1:${rgwPort}`
    const bucket = 'solopod-test'
    await createBucket(endpoint, bucket)
    const client = new S3Client({ endpoint, bucket, accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY, region: 'us-east-1' })
    // RGW makes its data pool at the first PUT (~1.5 s): made now, not in a test's timing.
    await until('first object', 30_000, async () => {
      await client.write('warm-up', 'x')
      await client.delete('warm-up')
      return true
    })
    return {
      endpoint,
      bucket,
      accessKeyId: ACCESS_KEY,
      secretAccessKey: SECRET_KEY,
      client,
      stopGateway: () => stopProcess(rgw),
      startGateway,
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}

const hmac = (key: string | Uint8Array, data: string) => new Bun.CryptoHasher('sha256', key).update(data).digest() as Uint8Array
const sha256Hex = (data: string) => new Bun.CryptoHasher('sha256').update(data).digest('hex')

/** Bun's client has no CreateBucket: one request signed here (AWS Signature Version 4, headers, empty body). */
async function createBucket(endpoint: string, bucket: string): Promise<void> {
  const host = new URL(endpoint).host
  const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '')
  const day = amzDate.slice(0, 8)
  const scope = `${day}/us-east-1/s3/aws4_request`
  const payload = sha256Hex('')
  const signed = 'host;x-amz-content-sha256;x-amz-date'
  const canonical = ['PUT', `/${bucket}`, '', `host:${host}`, `x-amz-content-sha256:${payload}`, `x-amz-date:${amzDate}`, '', signed, payload].join('\n')
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n')
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET_KEY}`, day), 'us-east-1'), 's3'), 'aws4_request')
  const signature = new Bun.CryptoHasher('sha256', key).update(toSign).digest('hex')
  const res = await fetch(`${endpoint}/${bucket}`, {
    method: 'PUT',
    headers: {
      'x-amz-content-sha256': payload,
      'x-amz-date': amzDate,
      authorization: `AWS4-HMAC-SHA256 Credential=${ACCESS_KEY}/${scope}, SignedHeaders=${signed}, Signature=${signature}`,
    },
  })
  if (!res.ok && res.status !== 409) throw new Error(`Ceph: creating bucket ${bucket}: ${res.status} ${await res.text()}`)
}

if (import.meta.main) {
  const missing = cephMissing()
  if (missing) {
    console.log(missing)
    process.exit(1)
  }
  const engine = await startCephRgw()
  console.log(
    `Ceph RGW on ${engine.endpoint}, bucket ${engine.bucket}; AWS_ACCESS_KEY_ID=${engine.accessKeyId} AWS_SECRET_ACCESS_KEY=${engine.secretAccessKey}`,
  )
  process.on('SIGINT', () => {
    void engine.stop().then(() => process.exit(0))
  })
}
