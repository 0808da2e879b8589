import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { fromSentError, toSentError } from '../../../src/cli/build-host.js'
import { handleError } from '../../../src/cli/exit.js'
import { errors, SiteError } from '../../../src/errors.js'

/** What handleError prints for an error, and its exit code. */
function printed(error: unknown, verbose = false): { code: number; text: string } {
  let text = ''
  const stderr = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk)
      done()
    },
  })
  return { code: handleError(error, { verbose, stderr }), text }
}

// What crosses from the build worker to the main thread: structured clone keeps an Error's message
// only, so the CLI's error (code, hint, cause) goes as plain data and is made again.
const roundTrip = (error: unknown): Error => fromSentError(structuredClone(toSentError(error)))

describe('errors from the build worker', () => {
  it('print as the same lines with the same exit code', () => {
    const cases: unknown[] = [
      errors.initialDataUnavailable('ECONNREFUSED (GET http://127.0.0.1:9/?type=834)', 500, new Error('connect')),
      errors.hostnameNotFound('nowhere.example', ['www.example.com']),
      errors.buildInterrupted('SIGINT'),
      new TypeError('plain failure'),
      'a thrown string',
    ]
    for (const error of cases) {
      const after = roundTrip(error)
      expect(printed(after), String(error)).toEqual(printed(error))
    }
    expect(printed(roundTrip(errors.hostnameNotFound('x.example'))).code).toBe(2)
  })

  it('keep their code, hint, status, stack and cause', () => {
    const cause = new Error('connect ECONNREFUSED')
    const error = errors.initialDataUnavailable('ECONNREFUSED', 503, cause)
    const after = roundTrip(error)
    expect(after).toBeInstanceOf(SiteError)
    expect(after).toMatchObject({ code: 'INITIAL_DATA_UNAVAILABLE', status: 503, message: error.message })
    expect(after.stack).toBe(error.stack)
    expect((after.cause as Error).message).toBe('connect ECONNREFUSED')
    expect(printed(after, true).text).toContain('Caused by: Error: connect ECONNREFUSED')
  })
})
