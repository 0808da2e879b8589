// Compiles src/ to dist/ with esbuild (one output file per source file, no bundling),
// so that `npx site` starts fast. Type checking is `npm run typecheck` (tsc).
import { readdirSync, rmSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))
const src = join(root, 'src')

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const file = join(dir, name)
    if (statSync(file).isDirectory()) return walk(file)
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [file] : []
  })

// The browser client is bundled at build time from src/client; it is not compiled for Node.
const entryPoints = walk(src).filter((file) => !relative(src, file).startsWith('client'))
rmSync(join(root, 'dist'), { recursive: true, force: true })
await build({
  entryPoints,
  outdir: join(root, 'dist'),
  outbase: src,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  jsx: 'automatic',
  sourcemap: 'linked',
  logLevel: 'warning',
})
