// The owner signed in to a running pod with the password startPod gave it: a cookie jar for the dashboard.

import { expect } from 'bun:test'
import { CookieJar, FORM, field, form } from '../op/op-fixture.ts'
import { OWNER_PASSWORD, type RunningPod } from './start-server.ts'

export async function ownerSignedIn(pod: RunningPod): Promise<CookieJar> {
  const owner = new CookieJar()
  const url = `${pod.baseUrl}/.oidc/login`
  const login = await owner.take(await fetch(url)).text()
  const res = owner.take(
    await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': FORM, cookie: owner.header(), origin: pod.baseUrl },
      body: form({ csrf: field(login, 'csrf'), interaction: '', return: '', password: OWNER_PASSWORD }),
    }),
  )
  expect(res.status).toBeLessThan(400)
  return owner
}
