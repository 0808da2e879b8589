// `bin/site.js` as a benchmark runs it: the CLI (compiled dist/) with the given arguments, then one
// `BENCH {…}` line on stderr with this process's CPU time and peak RSS (its render workers included).
import { run } from '../../dist/cli/index.js'

await run(process.argv)
const { user, system } = process.cpuUsage()
const usage = { cpuMs: (user + system) / 1000, maxRssBytes: process.resourceUsage().maxRSS * 1024 }
process.stderr.write(`\nBENCH ${JSON.stringify(usage)}\n`)
