import { describe, expect, test } from 'bun:test'
import { buildConfig, ConfigError, usage, withBoundPort } from '../src/config.ts'

describe('config: flags, env, defaults', () => {
  test('defaults: serve on port 3000 at http://localhost:3000 with ./data', () => {
    const cfg = buildConfig([], {})
    expect(cfg.command).toBe('serve')
    expect(cfg.port).toBe(3000)
    expect(cfg.baseUrl).toBe('http://localhost:3000')
    expect(cfg.dataDir.endsWith('/data')).toBe(true)
    expect(cfg.allowInsecureLocal).toBe(true)
  })
  test('flags win over env, env over defaults', () => {
    const cfg = buildConfig(['--port', '4000'], { SOLOPOD_PORT: '5000', SOLOPOD_DATA: '/tmp/x' })
    expect(cfg.port).toBe(4000)
    expect(cfg.dataDir).toBe('/tmp/x')
  })
  test('a trailing slash on the base URL is dropped: the issuer has one exact form', () => {
    expect(buildConfig(['--base-url', 'http://localhost:8080/'], {}).baseUrl).toBe('http://localhost:8080')
  })
  test('with --tls-cert the default base URL is https (also once --port 0 is bound)', () => {
    const cfg = buildConfig(['--port', '8443', '--tls-cert', 'c.pem', '--tls-key', 'k.pem'], {})
    expect(cfg.baseUrl).toBe('https://localhost:8443')
    expect(withBoundPort(buildConfig(['--port', '0', '--tls-cert', 'c.pem', '--tls-key', 'k.pem'], {}), 4443).baseUrl).toBe('https://localhost:4443')
    expect(withBoundPort(buildConfig(['--port', '0'], {}), 4000).baseUrl).toBe('http://localhost:4000')
  })
  test('insecure local fetching is off for a public base URL', () => {
    expect(buildConfig(['--base-url', 'https://pod.example'], {}).allowInsecureLocal).toBe(false)
  })
  test.each([
    [['--port', 'abc'], '--port must be an integer'],
    [['--port', '70000'], '--port must be an integer'],
    [['--bogus'], 'unknown flag --bogus'],
    [['--base-url', 'pod.example'], '--base-url must be an absolute URL'],
    [['--base-url', 'https://pod.example/alice/'], '--base-url must be an origin'],
    [['--base-url', 'ftp://pod.example'], '--base-url must be http:// or https://'],
    [['--tls-cert', 'a.pem'], '--tls-cert and --tls-key must be given together'],
    [['--log-level', 'loud'], '--log-level must be one of'],
    [['--max-body-bytes', '10'], '--max-body-bytes must be an integer'],
    [['--data'], '--data needs a value'],
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['--allow-insecure-local=maybe'], '--allow-insecure-local must be true or false'],
    [['--trust-proxy', 'proxy.example'], '--trust-proxy must be a comma-separated list of IP addresses'],
    [['--trust-proxy', '127.0.0.1,10.0.0.300'], '--trust-proxy must be a comma-separated list of IP addresses'],
    [['--allow-insecure-local=no'], '--allow-insecure-local must be true or false'],
    [['--allow-insecure-local', 'no'], '--allow-insecure-local takes no separate value'],
    [['serve', '--allow-insecure-local', 'false'], '--allow-insecure-local takes no separate value'],
    [['--allow-insecure-local', 'serve', 'extra'], 'serve takes no arguments'],
    [['export'], 'export needs one argument'],
    [['export', 'a', 'b'], 'export needs one argument'],
  ])('refuses %p with a message naming the flag', (argv, message) => {
    expect(() => buildConfig(argv as string[], {})).toThrow(ConfigError)
    expect(() => buildConfig(argv as string[], {})).toThrow(message)
  })
  test('--keep-versions-days: 30 by default, 0 turns versions off, a negative number is refused', () => {
    expect(buildConfig([], {}).keepVersionsDays).toBe(30)
    expect(buildConfig(['--keep-versions-days', '0'], {}).keepVersionsDays).toBe(0)
    expect(buildConfig([], { SOLOPOD_KEEP_VERSIONS_DAYS: '7' }).keepVersionsDays).toBe(7)
    expect(() => buildConfig(['--keep-versions-days', '-1'], {})).toThrow('--keep-versions-days')
  })
  test('--versions-disk-share: 20 percent by default, 0 is no cap, over 100 is refused', () => {
    expect(buildConfig([], {}).versionsDiskShare).toBe(20)
    expect(buildConfig(['--versions-disk-share', '0'], {}).versionsDiskShare).toBe(0)
    expect(buildConfig([], { SOLOPOD_VERSIONS_DISK_SHARE: '5' }).versionsDiskShare).toBe(5)
    expect(() => buildConfig(['--versions-disk-share', '101'], {})).toThrow('--versions-disk-share')
  })
  test('--trust-proxy takes IP addresses (flag or SOLOPOD_TRUST_PROXY); none by default', () => {
    expect(buildConfig([], {}).trustProxy).toEqual([])
    expect(buildConfig(['--trust-proxy', '127.0.0.1, ::FFFF:10.0.0.1,::1'], {}).trustProxy).toEqual(['127.0.0.1', '::FFFF:10.0.0.1', '::1'])
    expect(buildConfig([], { SOLOPOD_TRUST_PROXY: '192.0.2.1' }).trustProxy).toEqual(['192.0.2.1'])
  })

  describe('boolean flags: --flag, --flag=true or --flag=false, nothing else', () => {
    test.each([
      [['--allow-insecure-local'], true],
      [['--allow-insecure-local=true'], true],
      [['--allow-insecure-local=false'], false],
      [['--base-url', 'https://pod.example', '--allow-insecure-local'], true],
      [['--allow-insecure-local=false', 'serve'], false],
      [['--allow-insecure-local', 'serve'], true],
    ])('%p', (argv, value) => {
      expect(buildConfig(argv as string[], {}).allowInsecureLocal).toBe(value as boolean)
    })
    test('the env var takes true or false and refuses anything else', () => {
      expect(buildConfig([], { SOLOPOD_ALLOW_INSECURE_LOCAL: 'false' }).allowInsecureLocal).toBe(false)
      expect(() => buildConfig([], { SOLOPOD_ALLOW_INSECURE_LOCAL: 'no' })).toThrow('SOLOPOD_ALLOW_INSECURE_LOCAL must be true or false')
    })
  })
})

describe('--domain: a certificate of its own (ACME)', () => {
  const acme = ['--domain', 'pod.example', '--acme-email', 'me@example.org']
  test("https on 443 for everyone, http-01 on 80, Let's Encrypt; the base URL follows the domain", () => {
    const cfg = buildConfig(acme, {})
    expect(cfg.port).toBe(443)
    expect(cfg.host).toBe('0.0.0.0')
    expect(cfg.baseUrl).toBe('https://pod.example')
    expect(cfg.allowInsecureLocal).toBe(false)
    expect(cfg.acme).toEqual({ domain: 'pod.example', email: 'me@example.org', directoryUrl: 'https://acme-v02.api.letsencrypt.org/directory', httpPort: 80 })
  })
  test('env variables, another port (named in the base URL), another directory and CA file', () => {
    const cfg = buildConfig(['--port', '8443'], {
      SOLOPOD_DOMAIN: 'Pod.Example',
      SOLOPOD_ACME_EMAIL: 'me@example.org',
      SOLOPOD_HTTP_PORT: '8080',
      SOLOPOD_ACME_DIRECTORY: 'https://acme-staging-v02.api.letsencrypt.org/directory',
      SOLOPOD_ACME_CA_FILE: '/etc/ca.pem',
    })
    expect(cfg.baseUrl).toBe('https://pod.example:8443')
    expect(cfg.acme).toEqual({
      domain: 'pod.example',
      email: 'me@example.org',
      directoryUrl: 'https://acme-staging-v02.api.letsencrypt.org/directory',
      directoryCaFile: '/etc/ca.pem',
      httpPort: 8080,
    })
  })
  test('a base URL of the domain may name the public port, when a redirect puts the pod on another', () => {
    expect(buildConfig([...acme, '--port', '8443', '--base-url', 'https://pod.example'], {}).baseUrl).toBe('https://pod.example')
  })
  test.each([
    [['--domain', 'pod.example'], '--domain needs --acme-email'],
    [['--domain', 'pod example', '--acme-email', 'me@example.org'], '--domain must be a host name'],
    [['--acme-email', 'me@example.org'], '--acme-email needs --domain'],
    [['--http-port', '8080'], '--http-port needs --domain'],
    [[...acme, '--acme-directory', 'http://ca.example/dir'], '--acme-directory must be an https:// URL'],
    [[...acme, '--tls-cert', 'c.pem', '--tls-key', 'k.pem'], '--domain and --tls-cert exclude each other'],
    [[...acme, '--base-url', 'https://other.example'], '--base-url must name the --domain pod.example'],
    [[...acme, '--base-url', 'http://pod.example'], '--base-url must be https:// with --domain'],
    [[...acme, '--port', '0'], '--port must be an integer from 1 to 65535'],
    [[...acme, '--http-port', '0'], '--http-port must be an integer from 1 to 65535'],
  ])('refuses %p', (argv, message) => {
    expect(() => buildConfig(argv as string[], {})).toThrow(message)
  })
})

describe('links', () => {
  test('add takes one PATH, with --expires, --upload-only or --upload, and --name', () => {
    const cfg = buildConfig(['links', 'add', '/photos/', '--expires', '2d', '--upload-only', '--name', 'Drop'], {})
    expect(cfg).toMatchObject({ command: 'links', args: ['add', '/photos/'], expires: '2d', linkAllows: 'upload', keyName: 'Drop' })
    expect(buildConfig(['links', 'add', '/photos/', '--upload'], {}).linkAllows).toBe('read-upload')
    expect(buildConfig(['links', 'add', '/a.txt'], {}).linkAllows).toBeUndefined()
  })

  test('a missing PATH or ID, a stray word, or both upload flags: refused', () => {
    for (const argv of [
      ['links', 'add'],
      ['links', 'remove'],
      ['links', 'list', 'x'],
      ['links', 'open', 'x'],
    ]) {
      expect(() => buildConfig(argv, {}), argv.join(' ')).toThrow('usage: solopod links add PATH')
    }
    expect(() => buildConfig(['links', 'add', '/p/', '--upload-only', '--upload'], {})).toThrow(ConfigError)
  })
})

describe('blobs move --to', () => {
  test('the S3 flags go with --to when the pod is in its data directory', () => {
    const cfg = buildConfig(['blobs', 'move', '--to', 's3://bucket-a/pod', '--s3-endpoint', 'http://127.0.0.1:7480', '--s3-region', 'r1'], {})
    expect(cfg.s3).toBeUndefined()
    expect(cfg.moveTo).toMatchObject({ bucket: 'bucket-a', prefix: 'pod/', endpoint: 'http://127.0.0.1:7480', region: 'r1' })
  })
  test('--to local from a pod in a bucket: the S3 flags are the pod own', () => {
    const cfg = buildConfig(['blobs', 'move', '--to', 'local', '--blob-store', 's3://bucket-a', '--s3-endpoint', 'http://h:1'], {})
    expect(cfg.moveTo).toBe('local')
    expect(cfg.s3).toMatchObject({ bucket: 'bucket-a', endpoint: 'http://h:1' })
  })
  test.each([
    [['blobs', 'move'], 'blobs move needs --to local or --to s3://BUCKET[/prefix] --s3-endpoint URL'],
    [['blobs', 'move', '--to', 'nfs://x'], '--to must be local or s3://BUCKET[/prefix], got "nfs://x"'],
    [['blobs', 'move', '--to', 's3://bucket-a'], '--to s3://… needs --s3-endpoint URL'],
    [['blobs', 'check', '--to', 'local'], '--to goes with blobs move'],
    [['blobs', 'shuffle'], 'usage: solopod blobs check [--repair] | blobs move --to'],
  ])('%p is refused', (argv, message) => {
    expect(() => buildConfig(argv, {})).toThrow(ConfigError)
    expect(() => buildConfig(argv, {})).toThrow(message)
  })
})

describe('usage', () => {
  const line = (flag: string) =>
    usage()
      .split('\n')
      .find(l => l.startsWith(`  --${flag} `) || l === `  --${flag}`)!
  test('only a flag that may be given more than once says "(repeatable)"; a flag with a variable names it', () => {
    expect(line('scope')).toEndWith('(repeatable)')
    expect(line('expires')).not.toContain('(repeatable)')
    expect(line('repair')).not.toContain('(repeatable)')
    expect(line('port')).toMatch(/\[SOLOPOD_PORT\]$/)
    expect(usage().match(/\(repeatable\)/g)).toHaveLength(1)
  })
})
