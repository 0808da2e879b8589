/** A one-shot build's render service: its own thread first, workers once the build proves large. */
import { describe, expect, it } from 'vitest'
import type { PageJob, PageOutput } from '../../../src/build/render-threads/render-jobs.js'
import {
  createGrowingRenderService,
  createInlineRenderService,
  type RenderService,
  type SharedContext,
} from '../../../src/build/render-threads/render-pool.js'
import type { PageRenderer } from '../../../src/render/renderer.js'

/** A render service that answers every page with its own name, and records what it was asked. */
function named(name: string, ready: Promise<void> = Promise.resolve()) {
  const log = { pages: [] as string[], started: 0, closed: 0 }
  const service: RenderService = {
    ready,
    start: async () => {
      log.started += 1
    },
    page: async (job, use) => {
      log.pages.push(job.path)
      return use({ by: name } as unknown as PageOutput)
    },
    notFound: async () => ({ by: name }) as never,
    close: async () => {
      log.closed += 1
    },
  }
  return { service, log }
}

const job = (n: number): PageJob => ({ path: `/p${n}`, locale: 'en', payload: new Uint8Array() })
const context = {} as SharedContext
const by = (output: PageOutput) => (output as unknown as { by: string }).by

/** A growing service over `inline` and `pool`, counting how often it made its workers. */
function growing(inlinePages: number, inline = named('inline'), pool = named('pool')) {
  let made = 0
  const service = createGrowingRenderService({
    inline: inline.service,
    inlinePages,
    pool: () => {
      made += 1
      return pool.service
    },
  })
  return { service, inline, pool, made: () => made }
}

describe('createGrowingRenderService', () => {
  it('renders up to its limit in the build thread, then in workers once they are ready', async () => {
    const { service, inline, pool, made } = growing(2)
    await service.start(context)
    expect(await Promise.all([1, 2].map((n) => service.page(job(n), by)))).toEqual(['inline', 'inline'])
    expect(made()).toBe(0)
    // the third page starts the workers; it goes on in the build's thread while they load
    expect(await service.page(job(3), by)).toBe('inline')
    await new Promise((resolve) => setImmediate(resolve))
    expect([made(), pool.log.started]).toEqual([1, 1])
    expect(await service.page(job(4), by)).toBe('pool')
    expect(await service.notFound({ locale: 'en' })).toEqual({ by: 'pool' })
    expect(made()).toBe(1)
    await service.close()
    expect([inline.log.closed, pool.log.closed]).toEqual([1, 1])
  })

  it('starts its workers as soon as the build expects more pages than its limit, even before its start', async () => {
    const { service, pool, made } = growing(10)
    service.expect?.(10)
    expect(made()).toBe(0)
    // before the build's context is known (a large previous output): the workers load meanwhile
    service.expect?.(11)
    service.expect?.(500)
    expect([made(), pool.log.started]).toEqual([1, 0])
    await service.start(context)
    await new Promise((resolve) => setImmediate(resolve))
    expect([made(), pool.log.started, await service.page(job(1), by)]).toEqual([1, 1, 'pool'])
    await service.close()
  })

  it('keeps rendering in the build thread when the workers fail to start', async () => {
    const failing = named('pool', Promise.reject(new Error('no worker')))
    const { service } = growing(0, named('inline'), failing)
    await service.start(context)
    const outputs = []
    for (const n of [1, 2, 3]) outputs.push(await service.page(job(n), by))
    expect(outputs).toEqual(['inline', 'inline', 'inline'])
    expect(failing.log.started).toBe(0)
    await service.close()
  })

  it('starts no workers for a build that never reaches its limit', async () => {
    const { service, inline, made } = growing(100)
    await service.start(context)
    for (let n = 0; n < 100; n++) await service.page(job(n), by)
    await service.close()
    expect([made(), inline.log.pages.length]).toEqual([0, 100])
  })
})

describe('createInlineRenderService', () => {
  it('hands a render that could not run to `use` as a failed page, and rejects only with what `use` throws', async () => {
    const service = createInlineRenderService({} as PageRenderer)
    // no start(): the job cannot run
    const output = await service.page(job(1), (out) => out)
    expect(output).toEqual({
      type: 'failed',
      kind: 'RENDER_FAILED',
      status: 500,
      reason: 'render service used before start()',
      renderMs: 0,
    })
    await expect(
      service.page(job(2), () => {
        throw new Error('the writer broke')
      }),
    ).rejects.toThrow('the writer broke')
  })
})
