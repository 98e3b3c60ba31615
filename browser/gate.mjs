// @ts-check
// A transport's "connected" gate: writes made before the first connection wait on `promise`,
// which settles once (`open()`, or `fail(err)` when the transport closes or errs first).
// A failure nobody awaited is not reported as an unhandled rejection.
export function connectionGate() {
  let open
  let fail
  const promise = new Promise((resolve, reject) => {
    open = resolve
    fail = reject
  })
  promise.catch(() => {})
  return { promise, open, fail }
}
