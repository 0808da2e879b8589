import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type RuntimeExports, readRuntimeExports, splitRuntimeImports } from '../../../src/hydration/runtime-imports.js'
import { ROOT } from '../render/helpers.js'

const INDEX = join(ROOT, 'src/runtime/index.ts')
const runtimeExports = (): RuntimeExports => readRuntimeExports(INDEX, readFileSync(INDEX, 'utf8'))

describe('readRuntimeExports', () => {
  it('maps every value export of typo3-headless-site/runtime to the file that defines it', async () => {
    const map = runtimeExports()
    const runtime = (await import('../../../src/runtime/index.js')) as Record<string, unknown>
    expect([...map.keys()].sort()).toEqual(Object.keys(runtime).sort())
    for (const [name, target] of map) {
      expect(existsSync(target.file), target.file).toBe(true)
      const module = (await import(target.file)) as Record<string, unknown>
      expect(module[target.name], name).toBe(runtime[name])
    }
    expect(map.get('SafeLink')?.file).toBe(join(ROOT, 'src/runtime/SafeLink.tsx'))
    expect(map.get('withLocale')?.file).toBe(join(ROOT, 'src/shared/url.ts'))
  })

  it('reads aliases and leaves types out', () => {
    const map = readRuntimeExports(
      '/r/index.ts',
      "export { a, b as c, type T } from './x.js'\nexport type { U } from './y.js'\n",
    )
    expect([...map]).toEqual([
      ['a', { file: '/r/x.js', name: 'a' }],
      ['c', { file: '/r/x.js', name: 'b' }],
    ])
  })
})

describe('splitRuntimeImports', () => {
  const map: RuntimeExports = new Map([
    ['SafeLink', { file: '/r/SafeLink.tsx', name: 'SafeLink' }],
    ['Gallery', { file: '/r/Gallery.tsx', name: 'Gallery' }],
    ['pick', { file: '/r/texts.ts', name: 'pickLocale' }],
  ])

  it('imports each name from its own file, keeps aliases, drops type specifiers and keeps the line count', () => {
    const source =
      "import {\n  SafeLink,\n  Gallery as G,\n  type FileRef,\n  pick,\n} from 'typo3-headless-site/runtime'\nconst x = 1\n"
    const out = splitRuntimeImports(source, map)
    expect(out).toBe(
      `import { SafeLink } from "/r/SafeLink.tsx"; import { Gallery as G } from "/r/Gallery.tsx"; import { pickLocale as pick } from "/r/texts.ts";${'\n'.repeat(6)}const x = 1\n`,
    )
    expect(out.split('\n')).toHaveLength(source.split('\n').length)
  })

  it('leaves unknown names on the barrel and type-only imports and other modules alone', () => {
    expect(splitRuntimeImports(`import { SafeLink, useFuture } from "typo3-headless-site/runtime"`, map)).toBe(
      `import { SafeLink } from "/r/SafeLink.tsx"; import { useFuture } from "typo3-headless-site/runtime";`,
    )
    const untouched =
      "import type { PageData } from 'typo3-headless-site/runtime'\nimport { useState } from 'react'\nimport * as runtime from 'typo3-headless-site/runtime'\n"
    expect(splitRuntimeImports(untouched, map)).toBe(untouched)
  })
})
