/**
 * The demo API's photographs mode (`photos`): large JPEG photographs, as an editor uploads them, generated
 * deterministically with sharp at start (cached in the system's temporary folder, as they take a while), and
 * pages that show three of them each: `/photos/1` shows photographs 1 to 3, `/photos/2` 4 to 6, and so on.
 */
import { rename, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { makeFolders } from '../project/folders.js'
import type { DemoFile } from './files.js'
import { type DemoSource, ORIGIN_TOKEN } from './types.js'

export interface DemoPhotoOptions {
  /** How many photographs. */
  count: number
  /** @default 4000 */
  width?: number
  /** @default 2667 */
  height?: number
}

/** Photographs a photo page shows. */
const PHOTOS_PER_PAGE = 3
/** JPEG quality of the generated photographs: a camera's, about 3 to 4 MB at 4000x2667. */
const PHOTO_QUALITY = 92
/** Their `Last-Modified`: fixed, so that two runs serve the same answers. */
const PHOTO_MTIME = new Date('2026-01-15T09:30:00Z')

const photoUrlPath = (n: number): string => `/fileadmin/photos/photo-${n}.jpg`
const photoPagePath = (page: number): string => `/photos/${page}`

/** Pixels of photograph `n`: gradients, a texture and grain, all from `n` (the same bytes on every machine). */
function photoPixels(n: number, width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3)
  let seed = (n * 2654435761) >>> 0 || 1
  const hue = (n * 47) % 360
  const base = [128 + 90 * Math.cos((hue * Math.PI) / 180), 128 + 90 * Math.cos(((hue - 120) * Math.PI) / 180)]
  const third = 128 + 90 * Math.cos(((hue + 120) * Math.PI) / 180)
  let i = 0
  for (let y = 0; y < height; y++) {
    const fy = y / height
    const row = 40 * Math.sin(fy * 9 + n)
    for (let x = 0; x < width; x++) {
      seed ^= seed << 13
      seed ^= seed >>> 17
      seed ^= seed << 5
      const grain = ((seed >>> 0) % 33) - 16
      const wave = row + 30 * Math.sin(x / 37 + fy * 20)
      pixels[i++] = base[0]! * (1 - fy) + wave + grain
      pixels[i++] = base[1]! + wave * 0.5 + grain
      pixels[i++] = third * fy + 60 - wave + grain
    }
  }
  return pixels
}

/** The photographs as files of the demo API, generated once per size and number into the temporary folder. */
export async function preparePhotos(options: DemoPhotoOptions): Promise<Map<string, DemoFile>> {
  const width = options.width ?? 4000
  const height = options.height ?? 2667
  const dir = join(tmpdir(), `site-demo-photos-${width}x${height}-q${PHOTO_QUALITY}`)
  await makeFolders(dir)
  const files = new Map<string, DemoFile>()
  for (let n = 1; n <= options.count; n++) {
    const file = join(dir, `photo-${n}.jpg`)
    const exists = await stat(file).then(
      (s) => s.isFile() && s.size > 0,
      () => false,
    )
    if (!exists) {
      const jpeg = await sharp(photoPixels(n, width, height), { raw: { width, height, channels: 3 } })
        .jpeg({ quality: PHOTO_QUALITY })
        .toBuffer()
      const part = `${file}.${process.pid}.part`
      await writeFile(part, jpeg)
      await rename(part, file)
    }
    files.set(photoUrlPath(n), { absolutePath: file, contentType: 'image/jpeg', lastModified: PHOTO_MTIME })
  }
  return files
}

const photoFile = (n: number, width: number, height: number) => ({
  publicUrl: `${ORIGIN_TOKEN}${photoUrlPath(n)}`,
  properties: {
    title: `Photograph ${n}`,
    alternative: `Photograph ${n} of the demo`,
    description: null,
    mimeType: 'image/jpeg',
    type: 'image',
    filename: `photo-${n}.jpg`,
    originalUrl: photoUrlPath(n),
    link: null,
    dimensions: { width, height },
    extension: 'jpg',
  },
})

/** Page `page` of the photographs: a header and an image element whose gallery stacks three. */
function photoPage(page: number, count: number, width: number, height: number): string {
  const first = (page - 1) * PHOTOS_PER_PAGE + 1
  const shown = Array.from({ length: Math.min(PHOTOS_PER_PAGE, count - first + 1) }, (_, i) => first + i)
  const rows = Object.fromEntries(
    shown.map((n, i) => [String(i + 1), { columns: { '1': photoFile(n, width, height) } }]),
  )
  const title = `Photographs ${page}`
  return JSON.stringify({
    id: 90_000 + page,
    type: 'Standard',
    slug: photoPagePath(page),
    media: [],
    meta: { title, description: `Three photographs (page ${page}).`, robots: { noIndex: false, noFollow: false } },
    breadcrumbs: [],
    appearance: { layout: 'layout-0', backendLayout: 'default' },
    content: {
      colPos0: [
        {
          id: 900_000 + page,
          type: 'image',
          colPos: 0,
          appearance: { layout: 'default', frameClass: 'default', spaceBefore: '', spaceAfter: '' },
          content: {
            header: title,
            subheader: '',
            headerLayout: 1,
            headerPosition: '',
            headerLink: '',
            enlargeImageOnClick: false,
            gallery: {
              position: { horizontal: 'center', vertical: 'above', noWrap: false },
              width: 1200,
              count: { files: shown.length, columns: 1, rows: shown.length },
              columnSpacing: 10,
              border: { enabled: false, width: 2, padding: 0 },
              rows,
            },
          },
        },
      ],
    },
    i18n: [],
  })
}

/** A source that also answers the photo pages (in the default language, at `/photos/<n>`). */
export function withPhotoPages(source: DemoSource, options: DemoPhotoOptions): DemoSource {
  const width = options.width ?? 4000
  const height = options.height ?? 2667
  const pages = Math.ceil(options.count / PHOTOS_PER_PAGE)
  return {
    ...source,
    languages: source.languages,
    initialData(language) {
      const data = source.initialData(language)
      if (language.base !== '/') return data
      // the default language's menu links every photo page (a page that fails does not hide the next)
      const parsed = JSON.parse(data) as { navigation?: unknown[] }
      const link = (page: number, title: string) => ({
        title,
        link: photoPagePath(page),
        target: '',
        active: 0,
        current: 0,
        spacer: 0,
      })
      const children = Array.from({ length: pages }, (_, i) => link(i + 1, `Photographs ${i + 1}`))
      const entry = { ...link(1, 'Photographs'), hasSubpages: 1, children }
      parsed.navigation = [...(Array.isArray(parsed.navigation) ? parsed.navigation : []), entry]
      return JSON.stringify(parsed)
    },
    page(path) {
      const match = /^\/photos\/(\d{1,6})$/.exec(path)
      const n = match ? Number(match[1]) : 0
      return n >= 1 && n <= pages ? photoPage(n, options.count, width, height) : source.page(path)
    },
  }
}
