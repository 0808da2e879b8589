/**
 * What docs/publish.md tells a user to run is taken as it is. publish.md's webhook config reads each
 * secret from a variable, and its systemd unit reads the variables from an environment file: a secret left unset
 * stops `site publish` at start (exit 2), which under `Restart=always` is a unit that never comes up.
 */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

it("the systemd unit's environment file sets every variable the webhook config reads", async () => {
  const doc = await readFile(fileURLToPath(new URL('../../../docs/publish.md', import.meta.url)), 'utf8')
  const config = /```ts\n(\s*publish: \{[\s\S]*?)```/.exec(doc)![1]!
  const read = [...config.matchAll(/process\.env\.([A-Z0-9_]+)/g)].map((m) => m[1])
  const envFile = /`\/etc\/site\/publish\.env` holds ([^(]*)\(/.exec(doc)![1]!
  const set = [...envFile.matchAll(/`([A-Z0-9_]+)=…`/g)].map((m) => m[1])
  expect(read).toEqual(['TYPO3_WEBHOOK_PAGES', 'TYPO3_WEBHOOK_FILES', 'PUBLISH_TOKEN'])
  expect(set).toEqual(read)
})
