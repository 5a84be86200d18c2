// A film in a <video> element seeks to its middle (issue 22 "Files"): Chromium asks the pod for byte ranges,
// the pod answers 206, and the frame at the middle is decoded. The film is made by ffmpeg at test time.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HOOK_TIMEOUT, newContext, screenshot, startBrowserPod, type RunningPod } from './harness.ts'
import { seedPublicContainer } from '../e2e/seed-store.ts'

setDefaultTimeout(60_000)

const FFMPEG = Bun.which('ffmpeg')
if (!FFMPEG) console.warn('film-seek.test.ts: skipped, no ffmpeg to make the film (apt-get install ffmpeg)')

const FILM = '/films/test%20card.webm'
/**
 * A minute of ffmpeg's test card, VP8 at near-lossless quality with a key frame every second: ~21 MB.
 * Large on purpose: a film of a few MB arrives whole with Chromium's first range (`bytes=0-`), and the seek
 * then needs no request at all (seen as a flaky failure with a 3.6 MB film). Two seconds are encoded and
 * repeated by copying: encoding the whole minute took ~3 s on a quiet machine and over a minute on a busy one.
 */
const SECONDS = 60
const ENCODED_SECONDS = 2

const work = mkdtempSync(join(tmpdir(), 'solopod-film-'))
let pod: RunningPod
let page: ReturnType<typeof Bun.serve>
beforeAll(async () => {
  if (!FFMPEG) return
  const clip = join(work, 'clip.webm')
  const film = join(work, 'film.webm')
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=duration=${ENCODED_SECONDS}:size=640x360:rate=25`,
    '-c:v',
    'libvpx',
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
    '-qmin',
    '0',
    '-qmax',
    '2',
    '-b:v',
    '50M',
    '-g',
    '25',
    clip,
  ])
  ffmpeg(['-stream_loop', String(SECONDS / ENCODED_SECONDS - 1), '-i', clip, '-c', 'copy', film])
  // The access log (at debug) names every answer's status: the 206s are counted from it.
  pod = await startBrowserPod({ extraArgs: ['--log-level', 'debug'], seed: (dir, base) => seedPublicContainer(dir, base, '/films/', ['Read', 'Write']) })
  const put = await fetch(pod.baseUrl + FILM, { method: 'PUT', headers: { 'content-type': 'video/webm' }, body: Bun.file(film) })
  expect(put.status).toBe(201)
  // A page on another origin, as a person's web page embedding the pod's film would be.
  page = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () =>
      new Response(
        `<!doctype html><title>film</title><video id="film" src="${pod.baseUrl}${FILM}" preload="metadata" muted width="640" height="360"></video>`,
        { headers: { 'content-type': 'text/html; charset=utf-8' } },
      ),
  })
}, HOOK_TIMEOUT)
function ffmpeg(args: string[]): void {
  const made = Bun.spawnSync([FFMPEG!, '-loglevel', 'error', ...args])
  if (made.exitCode !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed (exit ${made.exitCode}, signal ${made.signalCode}): ${made.stderr.toString()}`)
}

afterAll(async () => {
  await page?.stop(true)
  await pod?.dispose()
  rmSync(work, { recursive: true, force: true })
})

/** The pod's answers to GETs of the film, as its access log records them. */
const filmStatuses = () =>
  pod
    .stdout()
    .split('\n')
    .filter(l => l.includes('"request"') && l.includes(`"path":"${FILM}"`))
    .map(l => JSON.parse(l) as { method: string; status: number })
    .filter(l => l.method === 'GET')
    .map(l => l.status)

describe.skipIf(!FFMPEG)('issue 22: a film in a browser', () => {
  test('a <video> seeks to the middle of the film: Chromium sends Range, the pod answers 206, and the middle frame is shown', async () => {
    const context = await newContext()
    try {
      const tab = await context.newPage()
      const ranges: string[] = []
      tab.on('request', r => {
        if (r.url().endsWith(FILM)) ranges.push(r.headers()['range'] ?? '(none)')
      })
      await tab.goto(`http://127.0.0.1:${page.port}/`)
      const duration = await tab.evaluate(
        () =>
          new Promise<number>((resolve, reject) => {
            const v = document.getElementById('film') as HTMLVideoElement
            if (v.readyState >= 1) resolve(v.duration)
            v.addEventListener('loadedmetadata', () => resolve(v.duration), { once: true })
            v.addEventListener('error', () => reject(new Error(`video error ${v.error?.code}: ${v.error?.message}`)), { once: true })
          }),
      )
      expect(duration).toBeCloseTo(SECONDS, 0)
      const asked = ranges.length
      // What Chromium asked and what the pod answered, named in every assertion's failure.
      const seen = () => JSON.stringify({ asked, ranges, statuses: filmStatuses() })
      const seeked = await tab.evaluate(
        () =>
          new Promise<{ time: number; readyState: number }>(resolve => {
            const v = document.getElementById('film') as HTMLVideoElement
            v.addEventListener(
              'seeked',
              () => {
                // Seeked may come before the frame is decoded: wait for the first data at the new position.
                if (v.readyState >= 2) resolve({ time: v.currentTime, readyState: v.readyState })
                else v.addEventListener('loadeddata', () => resolve({ time: v.currentTime, readyState: v.readyState }), { once: true })
              },
              { once: true },
            )
            v.currentTime = v.duration / 2
          }),
      )
      expect(seeked.time, seen()).toBeCloseTo(SECONDS / 2, 0)
      expect(seeked.readyState, seen()).toBeGreaterThanOrEqual(2)
      // The seek made Chromium ask again, with a Range (where it resumes reading is its own choice: near the
      // seek point, or the end of what it holds); never for the whole film.
      for (let waited = 0; ranges.length <= asked && waited < 3000; waited += 20) await Bun.sleep(20)
      expect(ranges.length, seen()).toBeGreaterThan(asked)
      expect(
        ranges.slice(asked).every(r => /^bytes=[1-9]\d*-/.test(r)),
        seen(),
      ).toBe(true)
      // The access log is printed through a pipe and may trail: wait until it names every request.
      for (let waited = 0; filmStatuses().length < ranges.length && waited < 3000; waited += 20) await Bun.sleep(20)
      // 206 for each range, or 304 when Chromium revalidates a range it holds (If-None-Match: resources are
      // served no-cache, so it asks before it uses bytes it kept); never a 200. The first answer is a 206.
      expect(
        filmStatuses().filter(s => s !== 206 && s !== 304),
        seen(),
      ).toEqual([])
      expect(filmStatuses()[0], seen()).toBe(206)
      await screenshot(tab, 'film-seek-middle')
    } finally {
      await context.close()
    }
  })
})
