// @ts-check
import codex from './codex.js'

export const { Codex, Thread } = codex
