import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import {
  ContentElement,
  type ContentElementProps,
  ElementRoot,
  Frame,
  Gallery,
  Heading,
  headingLevel,
  Image,
  Media,
  RichText,
  resolveHref,
  SafeLink,
  SiteApp,
  SiteContext,
} from '../../../src/runtime/index.js'
import { EMBED_SANDBOX } from '../../../src/runtime/Media.js'
import type { DataProblem, RenderState, TemplateRegistry } from '../../../src/shared/contract.js'
import type { ContentElement as Element } from '../../../src/shared/types.js'
import { makeState } from '../render/helpers.js'

const baseState = (overrides: Partial<RenderState> = {}): RenderState =>
  makeState({ site: { ...makeState().site, baseUrl: 'https://www.example.com' }, ...overrides })

const Probe = (props: ContentElementProps) => (
  <ElementRoot className="probe">{`probe ${props.uid} ${String(props.title)}`}</ElementRoot>
)
const registry = {
  layouts: { Default: () => null },
  content: { Default: () => <ElementRoot className="fallback" />, Probe },
  Header: () => null,
  Footer: () => null,
  ErrorPage: () => null,
} as unknown as TemplateRegistry

function render(node: ReactNode, overrides: Partial<RenderState> = {}, problems: DataProblem[] = []): string {
  const state = baseState(overrides)
  return renderToString(<SiteContext.Provider value={{ site: state, registry, problems }}>{node}</SiteContext.Provider>)
}

const element = (appearance: Element['appearance'], extra: Partial<Element> = {}): Element => ({
  id: 42,
  type: 'probe',
  appearance,
  content: { title: 'Hello' },
  ...extra,
})

describe('Frame and ContentElement', () => {
  it('wraps an element in a frame with id and classes, empty spaces becoming default', () => {
    const html = render(
      <ContentElement
        element={element({ layout: 'hero', frameClass: 'container', spaceBefore: '', spaceAfter: 'large' })}
      />,
    )
    expect(html).toContain(
      '<div id="c42" class="t3-ce-frame frame-container layout-hero space-before-default space-after-large">',
    )
    expect(html).toContain('probe 42 Hello')
    expect(html).not.toContain('pce-')
  })

  it('puts the id on the element itself when frameClass is none', () => {
    const html = render(<ContentElement element={element({ frameClass: 'none', layout: 'default' })} />)
    expect(html).toBe('<div id="c42" class="probe">probe 42 Hello</div>')
  })

  it('adds the editor preview markup only in editor preview, with localised labels', () => {
    const html = render(<ContentElement element={element({ frameClass: 'default' })} />, {
      editorPreview: true,
      locale: 'pl',
    })
    expect(html).toContain(
      'class="t3-ce-frame frame-default layout-default space-before-default space-after-default pce-target" data-pce-uid="42"',
    )
    expect(html).toContain(
      '<a class="pce-edit-link" href="#c42" data-pce-uid="42" data-label-edit="Edytuj" data-label-editing="Obecnie edytujesz ten element">Edytuj</a>',
    )
    const frameless = render(<ContentElement element={element({ frameClass: 'none' })} />, {
      editorPreview: true,
      locale: 'de',
    })
    expect(frameless).toContain('id="c42"')
    expect(frameless).toContain('pce-target')
    expect(frameless).toContain('data-label-editing="Sie bearbeiten gerade dieses Element">Bearbeiten</a>')
    const en = render(<ContentElement element={element({})} />, { editorPreview: true })
    expect(en).toContain('data-label-edit="Edit" data-label-editing="You are currently editing this element">Edit</a>')
  })

  it('uses the Default component for unknown types', () => {
    const html = render(<ContentElement element={element({}, { type: 'news_pi1' })} />)
    expect(html).toContain('class="fallback"')
  })

  it('skips and reports unusable envelopes instead of throwing', () => {
    const problems: DataProblem[] = []
    const html = render(
      <>
        <ContentElement element={null} />
        <ContentElement element={{ id: 'x', type: 'probe', content: {} }} />
        <ContentElement element={{ id: 1, content: {} }} />
        <ContentElement element={{ id: 2, type: 'probe', content: [] }} />
      </>,
      {},
      problems,
    )
    expect(html).toBe('')
    expect(problems).toHaveLength(4)
  })
})

describe('SafeLink', () => {
  it('renders safe links; external ones get rel=noopener', () => {
    expect(render(<SafeLink href="/about">About</SafeLink>)).toBe('<a href="/about">About</a>')
    expect(render(<SafeLink href="https://other.example.org/x">X</SafeLink>)).toBe(
      '<a href="https://other.example.org/x" rel="noopener">X</a>',
    )
    expect(render(<SafeLink href="https://www.example.com/pl/">PL</SafeLink>)).toBe('<a href="/pl">PL</a>')
    expect(render(<SafeLink href="mailto:hi@example.com">Mail</SafeLink>)).toContain('href="mailto:hi@example.com"')
  })

  it('refuses an http(s) URL no browser can read, with or without baseUrl', () => {
    for (const base of [undefined, 'https://www.example.com']) {
      expect(resolveHref('https://exa mple.com/', base)).toBeNull()
      expect(resolveHref('https://', base)).toBeNull()
      expect(resolveHref('https://other.example/a?b=c#d', base)).toEqual({
        href: 'https://other.example/a?b=c#d',
        external: true,
      })
    }
  })

  it('honours target and adds noopener to _blank', () => {
    expect(
      render(
        <SafeLink href="/a" target="_blank">
          A
        </SafeLink>,
      ),
    ).toBe('<a href="/a" target="_blank" rel="noopener">A</a>')
    expect(render(<SafeLink href={{ href: '/b', target: '_blank', title: 'Bee', class: 'x' }}>B</SafeLink>)).toBe(
      '<a href="/b" target="_blank" rel="noopener" title="Bee" class="x">B</a>',
    )
  })

  it('renders unsafe hrefs as text, never as links', () => {
    for (const href of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'data:text/html,<b>x</b>',
      'vbscript:x',
      '\\\\evil.invalid',
      '/\\evil.invalid',
      '',
      null,
      42,
    ]) {
      const html = render(<SafeLink href={href}>Click</SafeLink>)
      expect(html).toBe('<span>Click</span>')
    }
    expect(resolveHref('java\tscript:alert(1)')).toBeNull()
  })
})

describe('Heading', () => {
  it('maps headerLayout to levels: 0 -> h2, 1-6 as given, 100 hidden', () => {
    expect(headingLevel(0)).toBe(2)
    expect(headingLevel(1)).toBe(1)
    expect(headingLevel('3')).toBe(3)
    expect(headingLevel(100)).toBeNull()
    expect(headingLevel(9)).toBe(2)
    expect(render(<Heading header="Hi" headerLayout={0} />)).toBe(
      '<div class="ce-header"><h2 class="ce-headline">Hi</h2></div>',
    )
    expect(render(<Heading header="Hi" headerLayout={4} subheader="Sub" headerPosition="center" />)).toBe(
      '<div class="ce-header ce-header--center"><h4 class="ce-headline">Hi</h4><p class="ce-subheader">Sub</p></div>',
    )
    expect(render(<Heading header="Hi" headerLayout={100} />)).toBe('')
    expect(render(<Heading header="" headerLayout={1} />)).toBe('')
  })

  it('links the header through headerLink and escapes its text', () => {
    const html = render(
      <Heading
        header={'<script>alert(1)</script>'}
        headerLink={{ href: '/fun-facts', target: null }}
        headerLayout={1}
      />,
    )
    expect(html).toContain(
      '<h1 class="ce-headline"><a href="/fun-facts">&lt;script&gt;alert(1)&lt;/script&gt;</a></h1>',
    )
    expect(render(<Heading header="x" headerLink={{ href: 'javascript:alert(1)' }} />)).not.toContain('<a')
  })
})

describe('media', () => {
  const file = {
    publicUrl: 'https://cdn.example.com/a.jpg',
    properties: {
      alternative: 'An apple',
      title: null,
      dimensions: { width: 800, height: 600 },
      type: 'image',
      mimeType: 'image/jpeg',
    },
  }

  it('renders images with width, height, alt, lazy loading except when eager', () => {
    expect(render(<Image file={file} />)).toBe(
      '<img src="https://cdn.example.com/a.jpg" alt="An apple" width="800" height="600" loading="lazy" decoding="async"/>',
    )
    const eager = render(<Image file={file} eager />)
    expect(eager).toContain('loading="eager"')
    expect(eager).not.toContain('<link')
    expect(render(<Image file={{ publicUrl: 'https://cdn.example.com/b.jpg' }} />)).toContain('alt=""')
  })

  it('never loads unsafe URLs', () => {
    expect(render(<Image file={{ publicUrl: 'javascript:alert(1)' }} />)).toBe('')
    expect(render(<Media file={{ publicUrl: 'data:image/svg+xml,<svg onload=alert(1)>' }} />)).toBe('')
  })

  it('renders YouTube embeds, videos and downloads by type', () => {
    expect(
      render(
        <Media
          file={{
            publicUrl: 'https://www.youtube.com/embed/x',
            properties: { mimeType: 'video/youtube', type: 'video', title: 'Intro' },
          }}
        />,
      ),
    ).toContain(`<iframe src="https://www.youtube.com/embed/x" title="Intro" loading="lazy" sandbox="${EMBED_SANDBOX}"`)
    expect(
      render(
        <Media
          file={{ publicUrl: 'https://cdn.example.com/v.mp4', properties: { mimeType: 'video/mp4', type: 'video' } }}
        />,
      ),
    ).toContain('<video')
    expect(
      render(
        <Media
          file={{ publicUrl: 'https://cdn.example.com/f.pdf', properties: { type: 'application', filename: 'f.pdf' } }}
        />,
      ),
    ).toBe('<a href="https://cdn.example.com/f.pdf" rel="noopener">f.pdf</a>')
  })

  // Any https URL typed as a video once became an unsandboxed iframe.
  it.each([
    ['https://www.youtube.com/embed/abc?start=5', 'video/youtube'],
    ['https://www.youtube-nocookie.com/embed/abc', 'video/youtube'],
    ['https://player.vimeo.com/video/123', 'video/vimeo'],
  ])('embeds %s in a sandboxed frame', (url, mimeType) => {
    const problems: DataProblem[] = []
    const html = render(<Media file={{ publicUrl: url, properties: { mimeType, type: 'video' } }} />, {}, problems)
    expect(html).toMatch(/^<iframe /)
    expect(html).toContain(` sandbox="${EMBED_SANDBOX}"`)
    expect(EMBED_SANDBOX.split(' ')).not.toContain('allow-top-navigation')
    expect(problems).toEqual([])
  })

  it.each([
    ['https://evil.example/embed/abc', 'video/youtube'],
    ['https://www.youtube.com.evil.example/embed/abc', 'video/youtube'],
    ['https://evil.example@www.youtube.com/embed/abc', 'video/youtube'],
    ['https://www.youtube.com:8443/embed/abc', 'video/youtube'],
    ['http://www.youtube.com/embed/abc', 'video/youtube'],
    ['https://www.youtube.com/redirect?q=https://evil.example', 'video/youtube'],
    ['https://player.vimeo.com/video/1', 'video/youtube'],
    ['https://www.youtube.com/embed/abc', 'video/vimeo'],
    ['/fileadmin/embed/abc', 'video/vimeo'],
  ])('does not embed %s typed %s: a plain link, and a problem for the report', (url, mimeType) => {
    const problems: DataProblem[] = []
    const html = render(
      <Media file={{ publicUrl: url, properties: { mimeType, type: 'video', title: 'Clip' } }} />,
      {},
      problems,
    )
    expect(html).not.toContain('<iframe')
    expect(html).toMatch(/^<a href="[^"]+"[^>]*>Clip<\/a>$/)
    expect(problems).toEqual([{ kind: 'EMBED_REFUSED', message: expect.stringContaining('is not a player URL') }])
  })

  it('renders gallery rows and columns in order with figcaptions', () => {
    const described = { ...file, properties: { ...file.properties, description: 'Caption' } }
    const gallery = {
      position: { horizontal: 'left', vertical: 'intext' },
      count: { files: 3, columns: 2, rows: 2 },
      rows: { 2: { columns: { 1: file } }, 1: { columns: { 2: file, 1: described } } },
    }
    const html = render(<Gallery gallery={gallery} />)
    expect(html).toContain('class="ce-gallery ce-gallery--left ce-gallery--intext" data-ce-columns="2"')
    expect(html.match(/<figure/g)).toHaveLength(3)
    expect(html.match(/class="ce-gallery__row"/g)).toHaveLength(2)
    expect(html.indexOf('<figcaption>Caption</figcaption>')).toBeLessThan(
      html.indexOf('</div><div class="ce-gallery__row"'),
    )
    expect(render(<Gallery gallery={{ rows: {} }} />)).toBe('')
  })
})

describe('RichText', () => {
  it('renders HTML as given (already sanitised) and nothing for empty values', () => {
    expect(render(<RichText html="<p>Hi <strong>there</strong></p>" />)).toBe(
      '<div><p>Hi <strong>there</strong></p></div>',
    )
    expect(render(<RichText html="" />)).toBe('')
    expect(render(<RichText html={['x']} />)).toBe('')
  })
})

describe('SiteApp', () => {
  it('renders the loading bar host, header, main and footer in that order', () => {
    const html = renderToString(
      <SiteApp
        state={baseState({ status: 404, error: { status: 404, message: 'Page not found: /x' } })}
        registry={registry}
      />,
    )
    expect(html).toBe('<div id="site-loading-bar" aria-hidden="true"></div><main id="main" tabindex="-1"></main>')
  })

  it('renders through Frame directly for custom layouts', () => {
    expect(render(<Frame element={element({ frameClass: 'indent' })}>x</Frame>)).toContain('frame-indent')
  })
})
