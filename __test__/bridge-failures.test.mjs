// attachBridgeSession of claude-agent-sdk-native/bridge side by side with the official
// `./bridge` when things go wrong: registration and state-read failures and retries, streams
// refused or dropped, uploads retried (with Retry-After) or refused for good, the request-path
// escalations to 4090, and the heartbeat interval the service advises.
import { test } from 'node:test'
import { sideBySide, until, sleep, callbacks } from './helpers/bridge-side-by-side.mjs'

test('attach: register failures throw; init refused closes 4091', async () => {
  await Promise.all([{ status: 500, body: {} }, { status: 400, body: { error: 'nope' } }, { status: 200, body: { worker_epoch: 'x' } }, { status: 200, raw: 'garbage' }].map((answer) =>
    sideBySide({ answer: (e) => (e.path.endsWith('/register') ? answer : undefined) }, async (pkg, fake, record) => {
      await pkg.attachBridgeSession({ sessionId: 'cse_f', ingressToken: 'jwt', apiBaseUrl: fake.url }).then(() => record('attached'), (err) => record('threw', err.message))
    })))
  await sideBySide({ answer: (e) => (e.method === 'PUT' && e.path.endsWith('/worker') ? { status: 400, body: {} } : undefined) }, async (pkg, fake, record) => {
    let closed
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_f', ingressToken: 'jwt', apiBaseUrl: fake.url, ...callbacks(record), onClose: (c) => { closed = c; record('close', c) } })
    await until('close', () => closed !== undefined)
    record('connected', h.isConnected())
    h.write({ type: 'assistant', uuid: 'late', message: { role: 'assistant', content: [] } })
    h.close()
  })
})

test('attach: the stored state is read again after a failure before the worker registers; a 409 there ends it (4090)', async () => {
  const flaky = () => {
    let left = 2
    return { answer: (e) => (e.method === 'GET' && e.path.endsWith('/worker') && left-- > 0 ? { status: 503, body: {} } : undefined) }
  }
  await sideBySide(flaky, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_g', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 2, ...callbacks(record) })
    await until('connected', () => h.isConnected())
    await until('stream', () => fake.streams.size === 1)
    h.close()
  })
  await sideBySide({ answer: (e) => (e.method === 'GET' && e.path.endsWith('/worker') ? { status: 409, body: { error: { reason: 'epoch_stale' } } } : undefined) }, async (pkg, fake, record) => {
    let closed
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_g', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 2, ...callbacks(record), onClose: (c) => { closed = c; record('close', c) } })
    await until('onClose', () => closed !== undefined)
    await sleep(100)
    record('connected', h.isConnected())
    h.close()
  })
})

test('attach: the worker registration (PUT /worker) is retried after a 5xx; a 409 there ends the worker (4090)', async () => {
  const flaky = () => {
    let left = 2
    return { answer: (e) => (e.method === 'PUT' && e.path.endsWith('/worker') && e.body?.worker_status === 'idle' && left-- > 0 ? { status: 502, body: {} } : undefined) }
  }
  await sideBySide(flaky, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_i', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 2, ...callbacks(record) })
    await until('connected', () => h.isConnected())
    await until('stream', () => fake.streams.size === 1)
    h.close()
  })
  await sideBySide({ answer: (e) => (e.method === 'PUT' && e.path.endsWith('/worker') ? { status: 409, body: {} } : undefined) }, async (pkg, fake, record) => {
    let closed
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_i', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 2, ...callbacks(record), onClose: (c) => { closed = c; record('close', c) } })
    await until('onClose', () => closed !== undefined)
    await sleep(100)
    h.close()
  })
})

test('attach: the stream closes for good on 401/403/404, and a 409 on a write closes 4090', async () => {
  await Promise.all([401, 403, 404].map((status) =>
    sideBySide({ answer: (e) => (e.path.endsWith('/stream') ? { status, body: {} } : undefined) }, async (pkg, fake, record) => {
      let closed
      const h = await pkg.attachBridgeSession({ sessionId: 'cse_c', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 2, ...callbacks(record), onClose: (c) => { closed = c; record('close', c) } })
      await until('onClose', () => closed !== undefined)
      h.close()
    })))
  await sideBySide({ answer: (e) => (e.path.endsWith('/worker/events') ? { status: 409, body: { error: { reason: 'superseded_by_worker' } } } : undefined) }, async (pkg, fake, record) => {
    let closed
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_c', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 2, ...callbacks(record), onClose: (c) => { closed = c; record('close', c) } })
    await until('connected', () => h.isConnected())
    h.write({ type: 'assistant', uuid: 'a1', message: { role: 'assistant', content: [] } })
    await until('onClose', () => closed !== undefined)
    h.close()
  })
})

test('attach: a dropped stream reconnects from the sequence number reached', async () => {
  await sideBySide({}, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_r', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 5, ...callbacks(record) })
    await until('stream', () => fake.streams.size === 1)
    fake.send(3, { type: 'user', uuid: 'u3', message: { role: 'user', content: 'three' } })
    await until('seq', () => h.getSequenceNum() === 3)
    fake.endStreams()
    await until('second stream', () => fake.log.filter((e) => e.path.endsWith('/stream')).length === 2 && fake.streams.size === 1, 4000)
    fake.send(4, { type: 'user', uuid: 'u4', message: { role: 'user', content: 'four' } })
    await until('seq 4', () => h.getSequenceNum() === 4)
    await until('ev4 processed', () => fake.log.some((e) => e.path.endsWith('/delivery') && e.body.updates.some((u) => u.event_id === 'ev4' && u.status === 'processed')))
    h.close()
  })
})

test('attach: failed uploads are retried; the stream retries a 5xx', async () => {
  const failing = () => {
    const left = { events: 1, put: 1, delivery: 1, stream: 1 }
    return {
      answer: (e) => {
        const key = e.path.endsWith('/worker/events') ? 'events' : e.path.endsWith('/delivery') ? 'delivery' : e.path.endsWith('/stream') ? 'stream' : e.method === 'PUT' && e.body?.worker_status === 'running' ? 'put' : undefined
        if (key && left[key] > 0) {
          left[key]--
          return { status: 503, body: {} }
        }
        return undefined
      },
    }
  }
  await sideBySide(failing, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_v', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 6, ...callbacks(record) })
    await until('stream', () => fake.streams.size === 1, 5000)
    fake.send(1, { type: 'user', uuid: 'u1', message: { role: 'user', content: 'one' } })
    h.write({ type: 'assistant', uuid: 'w1', message: { role: 'assistant', content: [] } })
    h.reportState('running')
    await until('events delivered', () => fake.log.filter((e) => e.path.endsWith('/worker/events')).length === 2, 8000)
    await until('state delivered', () => fake.log.filter((e) => e.method === 'PUT' && e.body?.worker_status === 'running').length === 2, 8000)
    await until('delivery delivered', () => fake.log.filter((e) => e.path.endsWith('/delivery')).length >= 2, 8000)
    await h.flush()
    h.close()
  })
})

test('attach: uploads the service refuses for good (400, 413, 422) are dropped, later ones go', async () => {
  const refusing = () => {
    const left = { events: 1, delivery: 1, put: 1 }
    const statuses = { events: 413, delivery: 400, put: 422 }
    return {
      answer: (e) => {
        const key = e.path.endsWith('/worker/events') ? 'events' : e.path.endsWith('/delivery') ? 'delivery' : e.method === 'PUT' && e.body?.worker_status === 'running' ? 'put' : undefined
        return key && left[key]-- > 0 ? { status: statuses[key], body: {} } : undefined
      },
    }
  }
  await sideBySide(refusing, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_z', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 6, ...callbacks(record) })
    await until('stream', () => fake.streams.size === 1)
    // The refused batch holds a partial-message frame: it is dropped and the message offered again alone.
    h.write({ type: 'stream_event', uuid: 'zp', session_id: 'x', parent_tool_use_id: null, event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'p' } } })
    h.write({ type: 'assistant', uuid: 'z1', message: { role: 'assistant', content: [] } })
    h.reportState('running')
    h.reportDelivery('ev-a', 'processing')
    await until('first tries', () => fake.log.some((e) => e.path.endsWith('/worker/events')) && fake.log.some((e) => e.path.endsWith('/delivery')) && fake.log.some((e) => e.method === 'PUT' && e.body?.worker_status === 'running'))
    await h.flush()
    await sleep(1200)
    h.write({ type: 'assistant', uuid: 'z2', message: { role: 'assistant', content: [] } })
    h.reportState('idle')
    h.reportDelivery('ev-b', 'processed')
    await until('second events', () => fake.log.filter((e) => e.path.endsWith('/worker/events')).length >= 2)
    await h.flush()
    h.close()
  })
})

test('attach: three 404s or ten refused credentials in a row end the worker (4090)', async () => {
  await Promise.all([404, 401].map((status) =>
    sideBySide({ answer: (e) => (e.path.endsWith('/heartbeat') ? { status, body: {} } : undefined) }, async (pkg, fake, record) => {
      let closed
      const h = await pkg.attachBridgeSession({ sessionId: 'cse_w', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 6, heartbeatIntervalMs: 30, ...callbacks(record), onClose: (c) => { closed = c; record('close', c) } })
      await until('close', () => closed !== undefined, 5000)
      h.close()
    })))
})

test('attach: the heartbeat interval the service advises replaces the seed', async () => {
  await sideBySide({ answer: (e) => (e.path.endsWith('/heartbeat') ? { status: 200, body: { heartbeat_interval_seconds: 1 } } : undefined) }, async (pkg, fake, record) => {
    // Seeded at 300 ms: beats at 0.3 s and 0.6 s (scheduled before the first answer), then 10 s
    // later; without the advice there would be five or six in 1.8 s.
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_h', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 3, heartbeatIntervalMs: 300, ...callbacks(record) })
    await until('first beat', () => fake.log.some((e) => e.path.endsWith('/heartbeat')))
    await sleep(1500)
    record('at most 3 beats', fake.log.filter((e) => e.path.endsWith('/heartbeat')).length <= 3)
    h.close()
  })
})

test("attach: a 429's Retry-After sets when an upload is retried", async () => {
  const routes = () => {
    let left = 1
    return { answer: (e) => (e.path.endsWith('/worker/events') && left-- > 0 ? { status: 429, body: {}, headers: { 'retry-after': '2' } } : undefined) }
  }
  await sideBySide(routes, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_q', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 3, ...callbacks(record) })
    await until('connected', () => h.isConnected())
    h.write({ type: 'assistant', uuid: 'q1', message: { role: 'assistant', content: [] } })
    await until('first try', () => fake.log.some((e) => e.path.endsWith('/worker/events')))
    const first = Date.now()
    await until('retry', () => fake.log.filter((e) => e.path.endsWith('/worker/events')).length === 2, 5000)
    record('waited about 2 s', Date.now() - first >= 1900)
    await until('stream', () => fake.streams.size === 1)
    h.close()
  })
})
