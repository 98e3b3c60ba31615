// @ts-check
'use strict'
// Exports loaded on first use. Importing the package loads only what query() needs; the rest
// (settings resolution, the session functions, prewarm, direct connect, the file index, the
// command matcher, the denied-model check: a third of the import's modules) waits until an app
// uses it. Each export is one object from the start — the ES entry and the CommonJS entry hand
// out the same one, before and after the load — and behaves as the module's own.

/**
 * A module's exports, as a lazy export reads them.
 * @typedef {Record<string, any>} Exports
 */
/**
 * The loader lazyModule returns: the module on call, and the lazy classes made on it.
 * @typedef {(() => Exports) & { classes: Array<[string, object]> }} LazyModule
 */

/**
 * A module loaded on the first use of any of its lazy exports. Once loaded, the instances of its
 * lazy classes name the export as their `constructor`, as an instance's names its class.
 * @param {() => Exports} load
 * @returns {LazyModule}
 */
function lazyModule(load) {
  /** @type {Exports | undefined} */
  let mod
  /** @type {Array<[string, object]>} */
  const classes = []
  const get = () => {
    if (mod === undefined) {
      mod = load()
      for (const [name, proxy] of classes) {
        Object.defineProperty(mod[name].prototype, 'constructor', { value: proxy, writable: true, configurable: true, enumerable: false })
      }
    }
    return mod
  }
  get.classes = classes
  return get
}

/**
 * A function that loads its module on the first call and forwards every call to the module's
 * export `name` (same `this`, arguments and result). `length` is the real function's (checked by
 * __test__/lazy-exports.test.mjs).
 * @param {string} name
 * @param {number} length
 * @param {LazyModule} mod
 * @returns {Function}
 */
function lazyFunction(name, length, mod) {
  /** @type {Function | undefined} */
  let real
  const fn = { [name](/** @type {unknown[]} */ ...args) { return (real ??= mod()[name]).apply(this, args) } }[name]
  Object.defineProperty(fn, 'length', { value: length })
  return fn
}

/**
 * A class that loads its module on first use: a Proxy whose every operation (`new`, `extends`,
 * `instanceof`, static members, property reads and writes) goes to the module's export `name`.
 * @param {string} name
 * @param {LazyModule} mod
 * @returns {any} the class, as the module's own (its type is the typings')
 */
function lazyClass(name, mod) {
  const cls = () => mod()[name]
  // A bound function: constructible, with no own `prototype` to contradict the real class's.
  const target = function () {}.bind(null)
  Object.defineProperty(target, 'name', { value: name })
  /** @type {Function} */
  const proxy = new Proxy(target, {
    construct: (_, args, newTarget) => Reflect.construct(cls(), args, newTarget === proxy ? cls() : newTarget),
    apply: (_, self, args) => Reflect.apply(cls(), self, args),
    get: (_, key, receiver) => Reflect.get(cls(), key, receiver === proxy ? cls() : receiver),
    set: (_, key, value, receiver) => Reflect.set(cls(), key, value, receiver === proxy ? cls() : receiver),
    has: (_, key) => Reflect.has(cls(), key),
    deleteProperty: (_, key) => Reflect.deleteProperty(cls(), key),
    defineProperty: (_, key, desc) => Reflect.defineProperty(cls(), key, desc),
    ownKeys: () => Reflect.ownKeys(cls()),
    getOwnPropertyDescriptor: (t, key) => {
      const desc = Reflect.getOwnPropertyDescriptor(cls(), key)
      // A Proxy may report a property non-configurable only if its target has it so.
      if (desc && !desc.configurable && !Reflect.getOwnPropertyDescriptor(t, key)) Object.defineProperty(t, key, desc)
      return desc
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(cls()),
    setPrototypeOf: (_, proto) => Reflect.setPrototypeOf(cls(), proto),
  })
  mod.classes.push([name, proxy])
  return proxy
}

module.exports = { lazyModule, lazyFunction, lazyClass }
