/**
 * The user docs name every flag of every command, and README's options table names, for each flag it lists,
 * every command that takes it: a reader of the table must not believe a flag is build's only when publish and
 * deploy take it too.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createProgram } from '../../../src/cli/index.js'

const ROOT = join(import.meta.dirname, '../../..')
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const readme = read('README.md')
const userDocs = [
  readme,
  read('demo/README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => read(`docs/${name}`)),
].join('\n')

/** Each command's long flags, `--help` aside. */
const flagsOf = new Map(
  createProgram().commands.map((command) => [
    command.name(),
    command.options.map((option) => option.long).filter((long): long is string => !!long && long !== '--help'),
  ]),
)

/** README's options table: each flag of a row's first cell with the commands of its second cell. */
function readmeOptionRows(): Array<{ flag: string; commands: string[] }> {
  const start = readme.indexOf('| option ')
  const rows = readme.slice(start).split('\n\n')[0]!.split('\n').slice(2)
  return rows.flatMap((row) => {
    const [, flags = '', commands = ''] = row.split('|').map((cell) => cell.trim())
    const names = commands.split(',').map((name) => name.trim())
    return [...flags.matchAll(/`(--[a-z-]+)/g)].map((match) => ({ flag: match[1]!, commands: names }))
  })
}

describe('the docs and the commands', () => {
  it('name every flag of every command', () => {
    const missing = [...flagsOf].flatMap(([command, flags]) =>
      flags.filter((flag) => !userDocs.includes(flag)).map((flag) => `site ${command} ${flag}`),
    )
    expect(missing).toEqual([])
  })

  it("README's options table names every command that takes each flag it lists", () => {
    const rows = readmeOptionRows()
    expect(rows.length).toBeGreaterThan(5)
    for (const flag of new Set(rows.map((row) => row.flag))) {
      const listed = rows.filter((row) => row.flag === flag).flatMap((row) => row.commands)
      const taking = [...flagsOf].filter(([, flags]) => flags.includes(flag)).map(([command]) => command)
      expect(listed.sort(), flag).toEqual(taking.sort())
    }
  })
})
