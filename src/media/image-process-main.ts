/**
 * Entry of the image process (image-process.ts starts it): answers the build's requests as they come, the build
 * sending at most two files at a time, so that both cores encode; one AVIF encode at a time, as AVIF's encoder
 * holds far more memory than WebP's or JPEG's. Measured on 200 photographs (bench/media.mjs): one image at a
 * time saved 70-80 MB of peak RSS and doubled the build's wall time; outside a build, on 20 of them, two AVIF
 * encodes at once took 20% less time for 50 MB more. Exits when the build disconnects.
 *
 * Once an image's variants are sent, the process collects its garbage: they, and their copies for the pipe, are
 * buffers outside V8's heap, which V8 would let pile up by tens of MB before it collected a heap this small on
 * its own. A collection here takes about 10 ms, against about 300 ms of encoding.
 */
import pLimit from 'p-limit'
import { messageOf } from '../errors.js'
import {
  disableOperationCache,
  type EncodedVariant,
  encodeVariants,
  errorLine,
  type ImageSize,
  probeImage,
} from './encode.js'
import type { ImageRequest } from './image-process.js'

disableOperationCache()
const heavy = pLimit(1)
/** Node's gc(), given by `--expose-gc` (image-process.ts starts the process with it). */
const collect = (globalThis as { gc?: () => void }).gc

const answer = (request: ImageRequest): Promise<ImageSize | EncodedVariant[]> =>
  request.type === 'probe'
    ? probeImage(request.file)
    : encodeVariants(request.file, request.plan, request.limitInputPixels, heavy)

process.on('message', (request: ImageRequest) => {
  answer(request).then(
    (result) =>
      process.send?.({ id: request.id, result }, () => {
        if (request.type === 'encode') collect?.()
      }),
    (error: unknown) => process.send?.({ id: request.id, error: errorLine(messageOf(error), request.file) }),
  )
})
process.on('disconnect', () => process.exit(0))
