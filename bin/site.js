#!/usr/bin/env node
import { run } from '../dist/cli/index.js'

await run(process.argv)
