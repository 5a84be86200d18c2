// Whose slot a channel takes: an agent by its WebID whatever app it names, keys without a WebID by their keys,
// an anonymous subscriber by its address (an IPv6 one by its /64); the owner's channels are marked apart.

import { describe, expect, test } from 'bun:test'
import type { ClientId, WebId } from '../../src/account/ids.ts'
import { holderOf } from '../../src/channels/channel-holder.ts'

const OWNER = 'http://localhost:3000/profile/card#me'
const BOB = 'http://localhost:4000/profile/card#me' as WebId

describe('holderOf', () => {
  test('an agent is one client whatever app id it sends: a client id costs nothing to change', () => {
    const a = holderOf({ webid: BOB, clientId: 'https://app.example/id' as ClientId, keys: [BOB] }, '203.0.113.1', OWNER)
    const b = holderOf({ webid: BOB, clientId: 'https://other.example/id' as ClientId, keys: [BOB] }, '203.0.113.2', OWNER)
    expect(a.client).toBe(b.client)
    expect(a.owner).toBe(false)
  })

  test('anonymous subscribers are counted by address, an IPv6 one by its /64', () => {
    const anon = { keys: [] }
    expect(holderOf(anon, '2001:db8:1:2::5', OWNER).client).toBe(holderOf(anon, '2001:db8:1:2:ffff::9', OWNER).client)
    expect(holderOf(anon, '203.0.113.1', OWNER).client).not.toBe(holderOf(anon, '203.0.113.2', OWNER).client)
  })

  test("the owner's channels are the owner's", () => {
    expect(holderOf({ webid: OWNER as WebId, keys: [OWNER] }, '203.0.113.1', OWNER).owner).toBe(true)
  })
})
