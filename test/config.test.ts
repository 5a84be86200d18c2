import { describe, expect, test } from 'bun:test'
import { buildConfig, ConfigError, withBoundPort } from '../src/config.ts'

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
  ])('refuses %p with a message naming the flag', (argv, message) => {
    expect(() => buildConfig(argv as string[], {})).toThrow(ConfigError)
    expect(() => buildConfig(argv as string[], {})).toThrow(message)
  })
})
