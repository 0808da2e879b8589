/** The registry module `templatesPlugin()` generates from templates/ (see src/render/templates.ts). */
declare module 'site:templates' {
  import type { TemplateRegistry } from '../render/types.js'
  const registry: TemplateRegistry
  export default registry
}
