// The demo site with nothing but npm: start the bundled demo content API, then
//   (no mode)  build the demo site from it with `site build` and serve the output with `site serve` (npm run demo);
//   preview    run `site preview` on it, the editors' live preview (npm run dev, npm run preview);
//   build      build it once and stop (npm run build).
// Ports: `npm run demo -- --port N --api-port N`, or PORT (8080; 3000 for preview) and DEMO_API_PORT (4010).
// Ctrl-C stops both.
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = fileURLToPath(new URL('../bin/site.js', import.meta.url))

const usage =
  'usage: node scripts/demo.mjs [preview|build] [--port N --api-port N]  (npm run demo, dev, preview, build; or PORT=N DEMO_API_PORT=N)'
let flags
let mode
try {
  const parsed = parseArgs({
    options: { port: { type: 'string' }, 'api-port': { type: 'string' } },
    allowPositionals: true,
  })
  flags = parsed.values
  mode = parsed.positionals[0] ?? 'serve'
  if (!['serve', 'preview', 'build'].includes(mode) || parsed.positionals.length > 1)
    throw new Error(`unknown mode ${JSON.stringify(parsed.positionals.join(' '))}`)
} catch (error) {
  console.error(`npm run demo: ${error.message}\n${usage}`)
  process.exit(2)
}
const portOf = (value, name) => {
  if (/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535) return value
  console.error(`npm run demo: ${name} must be a port number from 1 to 65535, got ${JSON.stringify(value)}\n${usage}`)
  process.exit(2)
}
const apiPort = portOf(flags['api-port'] ?? process.env.DEMO_API_PORT ?? '4010', '--api-port (DEMO_API_PORT)')
const port = portOf(flags.port ?? process.env.PORT ?? (mode === 'preview' ? '3000' : '8080'), '--port (PORT)')
const api = `http://127.0.0.1:${apiPort}`

// Both ports checked before anything starts, so that the advice names this script's own way to change them.
for (const [which, value, how] of [
  ...(mode === 'build' ? [] : [['the site', port, `--port N (or PORT=N)`]]),
  ['the demo API', apiPort, `--api-port N (or DEMO_API_PORT=N)`],
]) {
  const free = await new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(Number(value), '127.0.0.1', () => probe.close(() => resolve(true)))
  })
  if (!free) {
    console.error(
      `npm run demo: port ${value} for ${which} is already in use; choose another with npm run demo -- ${how}`,
    )
    process.exit(2)
  }
}

const run = (args, options = {}) => spawn(process.execPath, [bin, ...args], { cwd: root, stdio: 'inherit', ...options })
const exited = (child) =>
  new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))))

const demoApi = run(['demo-api', '--port', apiPort])
const stop = () => demoApi.kill('SIGTERM')
process.on('exit', stop)

// Wait until the demo API answers before building.
for (let i = 0; ; i++) {
  try {
    const res = await fetch(`${api}/?type=834`)
    if (res.ok) break
  } catch {
    if (i > 100) {
      console.error(`The demo API did not start on ${api}`)
      process.exit(1)
    }
  }
  await new Promise((r) => setTimeout(r, 100))
}

if (mode !== 'preview') {
  const buildCode = await exited(run(['build', '--api', api]))
  if (buildCode !== 0 || mode === 'build') {
    stop()
    process.exit(buildCode)
  }
}
const serve = run(mode === 'preview' ? ['preview', '--api', api, '--port', port] : ['serve', '--port', port])
process.on('SIGINT', () => serve.kill('SIGINT'))
process.on('SIGTERM', () => serve.kill('SIGTERM'))
const serveCode = await exited(serve)
stop()
process.exit(serveCode)
