// @ts-check
// An async queue read by one consumer: the frames a transport received, or the messages a query
// yields. enqueue() hands a value to a waiting reader or keeps it; done() ends the stream after
// what is queued; error() ends it with an error once the queue is empty.
export class MessageQueue {
  /** @type {any[]} the messages (session frames, as parsed) not taken yet */
  #queue = []
  /** @type {((result: IteratorResult<any, undefined>) => void) | undefined} */
  #resolve
  /** @type {((error: unknown) => void) | undefined} */
  #reject
  #done = false
  /** @type {unknown} */
  #error
  #started = false

  /** @param {() => void} [onReturn] */
  constructor(onReturn) {
    this.onReturn = onReturn
  }

  get ended() {
    return this.#done
  }

  [Symbol.asyncIterator]() {
    if (this.#started) throw new Error('Stream can only be iterated once')
    this.#started = true
    return this
  }

  next() {
    if (this.#queue.length > 0) return Promise.resolve({ done: false, value: this.#queue.shift() })
    if (this.#done) return Promise.resolve({ done: true, value: undefined })
    if (this.#error) return Promise.reject(this.#error)
    return new Promise((resolve, reject) => {
      this.#resolve = resolve
      this.#reject = reject
    })
  }

  /** @param {any} value a message */
  enqueue(value) {
    if (this.#resolve) {
      const resolve = this.#resolve
      this.#resolve = this.#reject = undefined
      resolve({ done: false, value })
    } else this.#queue.push(value)
  }

  done() {
    this.#done = true
    if (this.#resolve) {
      const resolve = this.#resolve
      this.#resolve = this.#reject = undefined
      resolve({ done: true, value: undefined })
    }
  }

  /** @param {unknown} err */
  error(err) {
    this.#error = err
    if (this.#reject) {
      const reject = this.#reject
      this.#resolve = this.#reject = undefined
      reject(err)
    }
  }

  return() {
    this.#done = true
    this.onReturn?.()
    return Promise.resolve({ done: true, value: undefined })
  }
}
