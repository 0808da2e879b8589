/** The registry modules `templatesPlugin()` generates from templates/ (see src/hydration/registry-source.ts). */
declare module 'site:templates' {
  import type { TemplateRegistry } from '../shared/contract.js'

  const registry: TemplateRegistry
  export default registry
}

/** The browser entry's variant: Header, Footer, texts loaders, the use client list, the main loaders' loader (see templates.ts). */
declare module 'site:templates/lazy' {
  import type { LazyTemplates } from './templates.js'

  const templates: LazyTemplates
  export default templates
}

/** Layouts, content elements and ErrorPage as loaders, each its own chunk (see templates.ts). */
declare module 'site:templates/main' {
  import type { MainTemplates } from './templates.js'

  const templates: MainTemplates
  export default templates
}
