/**
 * Name resolution as in nuxt-typo3: backend layout and content type names become
 * PascalCase registry keys, with `Default` when nothing matches.
 */
import type { ComponentType } from 'react'
import type { ContentElementProps, LayoutProps, TemplateRegistry } from '../shared/contract.js'
import { ownValue } from '../shared/values.js'

const WORD_SPLIT_RE = /[\s\-_/.]+|(?<=[a-z0-9])(?=[A-Z])/

/**
 * scule-style `pascalCase`: words split on separators and lower-to-upper case changes,
 * each word's first letter upper-cased, the rest kept.
 * Example: `two_columns` -> `TwoColumns`, `menu_pages` -> `MenuPages`, `singlecolumn` -> `Singlecolumn`.
 */
export function pascalCase(name: string): string {
  return name
    .split(WORD_SPLIT_RE)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')
}

/** The layout component of a backend layout name (none named: `Default`); undefined when the name has no template. */
export function findLayout(registry: TemplateRegistry, backendLayout: unknown): ComponentType<LayoutProps> | undefined {
  const name = typeof backendLayout === 'string' && backendLayout !== '' ? pascalCase(backendLayout) : 'Default'
  return ownValue(registry.layouts, name)
}

/** The component of a content element type; undefined when the type has no template. */
export function findContent(registry: TemplateRegistry, type: string): ComponentType<ContentElementProps> | undefined {
  return ownValue(registry.content, pascalCase(type))
}

/** The layout component of a backend layout name; `Default` when none matches. */
export function resolveLayout(registry: TemplateRegistry, backendLayout: unknown): ComponentType<LayoutProps> {
  return findLayout(registry, backendLayout) ?? (registry.layouts.Default as ComponentType<LayoutProps>)
}

/** The component of a content element type; `Default` when none matches. */
export function resolveContent(registry: TemplateRegistry, type: string): ComponentType<ContentElementProps> {
  return findContent(registry, type) ?? (registry.content.Default as ComponentType<ContentElementProps>)
}
