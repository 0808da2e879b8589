// The main job, end to end: start the bundled demo content API, build the demo
// site from it with `site build`, and serve the output with `site serve`.
// Ports: DEMO_API_PORT (4010), PORT (8080). Ctrl-C stops both.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = fileURLToPath(new URL('../bin/site.js', import.meta.url))
const apiPort = process.env.DEMO_API_PORT ?? '4010'
const port = process.env.PORT ?? '8080'
const api = `http://127.0.0.1:${apiPort}`

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
