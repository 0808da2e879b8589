/**
 * `site/render`: the render core for scripts and tests. Pure: prepared data in, strings out.
 * (React loads with it; the `site` entry does without.)
 */

export { loadTemplates } from '../hydration/node-registry.js'
export type { BootState, PagePayload, RenderResult, RenderState, TemplateRegistry } from '../shared/contract.js'
export { type AssembledPage, type AssemblyContext, assemblePage, type PageView } from './assemble.js'
export { type DocumentInput, renderDocument } from './document.js'
export { prepareInitialData, preparePage } from './prepare.js'
export { renderPage } from './render-page.js'
export { createRenderer, loadRenderer, type PageRenderer } from './renderer.js'
