/** The registry modules `templatesPlugin()` generates from templates/ (see src/render/templates.ts). */
declare module 'site:templates' {
  import type { TemplateRegistry } from '../render/types.js'
  const registry: TemplateRegistry
  export default registry
}

/** The browser's variant: layouts and content elements as loaders, each its own chunk (see templates.ts). */
declare module 'site:templates/lazy' {
  import type { LazyTemplates } from './templates.js'
  const templates: LazyTemplates
  export default templates
}
