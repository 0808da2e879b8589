/** A deploy target from its string (`dir:`, `s3://`, `command:`); the S3 client is loaded only for S3. */
import { errors } from '../../errors.js'
import { parseDeploySpec } from '../target-spec.js'
import { createCommandTarget } from './command.js'
import { createDirTarget } from './dir.js'
import type { DeployTarget, OtherSite } from './types.js'

/**
 * `context.otherSites`: the config's other sites, whose output folders a `dir:` target may not hold or be in;
 * `context.terminal`: the deploy runs at a terminal, which a `command:` target's command may use.
 */
export async function createDeployTarget(
  spec: string,
  context: { outDir: string; root: string; otherSites?: readonly OtherSite[]; terminal?: boolean },
): Promise<DeployTarget> {
  const parsed = parseDeploySpec(spec)
  if ('error' in parsed) throw errors.usage(`Invalid deploy target ${JSON.stringify(spec)}: ${parsed.error}`)
  if (parsed.kind === 'dir') return createDirTarget(parsed.path, context.outDir, context.otherSites, context.root)
  if (parsed.kind === 'command')
    return createCommandTarget(parsed.command, context.outDir, context.root, { terminal: context.terminal })
  const { createS3Target } = await import('./s3.js')
  return createS3Target(parsed.bucket, parsed.prefix)
}
