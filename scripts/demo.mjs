// The main job, end to end: start the bundled demo content API, build the demo
// site from it with `site build`, and serve the output with `site serve`.
// Ports: `npm run demo -- --port N --api-port N`, or PORT (8080) and DEMO_API_PORT (4010).
// Ctrl-C stops both.
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = fileURLToPath(new URL('../bin/site.js', import.meta.url))

const usage = 'usage: npm run demo [-- --port N --api-port N]  (or PORT=N DEMO_API_PORT=N npm run demo)'
let flags
try {
  flags = parseArgs({ options: { port: { type: 'string' }, 'api-port': { type: 'string' } } }).values
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
const port = portOf(flags.port ?? process.env.PORT ?? '8080', '--port (PORT)')
const api = `http://127.0.0.1:${apiPort}`

// Both ports checked before anything starts, so that the advice names this script's own way to change them.
for (const [which, value, how] of [
  ['the site', port, `--port N (or PORT=N)`],
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

const buildCode = await exited(run(['build', '--api', api]))
if (buildCode !== 0) {
  stop()
  process.exit(buildCode)
}
const serve = run(['serve', '--port', port])
process.on('SIGINT', () => serve.kill('SIGINT'))
process.on('SIGTERM', () => serve.kill('SIGTERM'))
const serveCode = await exited(serve)
stop()
process.exit(serveCode)
