// The floor of the fast-start row: a bare Node process that imports react-dom/server, renders one
// element and writes one file (the path given as its argument).
import { writeFileSync } from 'node:fs'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'

writeFileSync(process.argv[2], `<!doctype html>${renderToString(createElement('p', null, 'Hello'))}`)
