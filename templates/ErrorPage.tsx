/**
 * The error page (no page content came with the error): 404 says the page was not found
 * and links to the current locale's home; other statuses say Error and the code.
 * The raw error shows only in a preview with `?debug`; preview's hint (the API did not answer) always.
 */
import { type ErrorPageProps, useHomePath, useSite } from 'typo3-headless-site/runtime'
import { useTexts } from './texts.js'

function toJson(value: unknown): string {
  const seen = new WeakSet<object>()
  try {
    return JSON.stringify(
      value,
      (_key, item: unknown) => {
        if (typeof item !== 'object' || item === null) return item
        if (seen.has(item)) return '[circular]'
        seen.add(item)
        return item
      },
      2,
    )
  } catch {
    return String(value)
  }
}

export default function ErrorPage({ error }: ErrorPageProps) {
  const t = useTexts()
  const home = useHomePath()
  const { debug } = useSite()
  const notFound = error.status === 404
  return (
    <section className="error-page container" aria-labelledby="error-title">
      <p className="error-page__code" aria-hidden={notFound ? undefined : 'true'}>
        {error.status}
      </p>
      <h1 id="error-title" className="error-page__title">
        {notFound ? t.notFound : `${t.error} ${error.status}`}
      </h1>
      {/* The hint is the engine's, in English whatever the page's language. */}
      {error.hint && (
        <p className="error-page__hint" lang="en">
          {error.hint}
        </p>
      )}
      <p className="error-page__home">
        <a href={home} className="btn btn--primary">
          {t.checkHomePage}
        </a>
      </p>
      {debug && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls; in the tab order, a keyboard can scroll it
        <pre className="error-page__debug" tabIndex={0}>
          {toJson(error.raw ?? error)}
        </pre>
      )}
    </section>
  )
}
