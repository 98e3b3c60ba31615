// What the first query loads: no second copy of zod beside the app's, and the engine's binary
// chosen without the process report (which costs a first query ≈ 5 ms). Timings themselves are
// measured by `npm run bench`, never here.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const native = require('../lib/native.js')
const zodLoader = require('../lib/schema/zod-loader.js')

/** A minimal ELF header followed by an interpreter path, as the loader string sits in a binary. */
function fakeElf(dir, name, interp) {
  const file = path.join(dir, name)
  const head = Buffer.alloc(1024)
  head.write('\x7fELF', 0, 'latin1')
  if (interp) head.write(interp + '\0', 0x238, 'latin1')
  fs.writeFileSync(file, head)
  return file
}

test('the loader an executable names tells musl from glibc', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elf-'))
  try {
    assert.equal(native.elfInterpreter(fakeElf(dir, 'musl', '/lib/ld-musl-aarch64.so.1')), '/lib/ld-musl-aarch64.so.1')
    assert.equal(native.elfInterpreter(fakeElf(dir, 'gnu', '/lib64/ld-linux-x86-64.so.2')), '/lib64/ld-linux-x86-64.so.2')
    assert.equal(native.elfInterpreter(fakeElf(dir, 'static', null)), undefined)
    fs.writeFileSync(path.join(dir, 'script'), '#!/bin/sh\n# /lib/ld-musl-x86_64.so.1\n')
    assert.equal(native.elfInterpreter(path.join(dir, 'script')), undefined, 'not ELF')
    assert.equal(native.elfInterpreter(path.join(dir, 'absent')), undefined)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  if (process.platform === 'linux' && !process.versions.bun) {
    const own = native.elfInterpreter(process.execPath)
    // Decided without the process report (whether or not musl is installed beside glibc).
    const getReport = process.report.getReport
    let reports = 0
    process.report.getReport = function (...args) { reports++; return getReport.apply(this, args) }
    try {
      if (own) assert.equal(native.isMusl(), own.includes('musl'))
    } finally {
      process.report.getReport = getReport
    }
    assert.equal(reports, 0)
  }
})

test('a tool made with the app\'s classic zod is compiled with that same zod module (no second zod graph)', async () => {
  const { z } = await import('zod')
  const { createSdkMcpServer, tool } = await import('claude-agent-sdk-native')
  assert.equal(zodLoader.flavourOf({ text: z.string() }), 'classic')
  createSdkMcpServer({ name: 'startup-paths', tools: [tool('echo', 'Echo', { text: z.string() }, async (a) => ({ content: [{ type: 'text', text: a.text }] }))] })
  await zodLoader.pendingPreload()
  const used = zodLoader.loadZod4(undefined, 'classic')
  const root = await import('zod')
  assert.equal(used.object, root.object, 'object() comes from the module the app imported')
  assert.equal(used.core, root.core)
})

test('a tool made with zod mini is compiled with zod mini', async () => {
  const mini = await import('zod/v4/mini')
  assert.equal(zodLoader.flavourOf({ n: mini.number() }), 'mini')
  assert.equal(zodLoader.flavourOf(mini.object({ n: mini.number() })), 'mini')
  assert.equal(zodLoader.flavourOf({}), 'classic')
})
