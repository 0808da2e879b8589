/**
 * Entry of the image process (image-process.ts starts it): answers the build's requests as they come, the build
 * sending at most two files at a time, so that both cores encode; one AVIF encode at a time, as AVIF's encoder
 * holds far more memory than WebP's or JPEG's. Measured on 200 photographs (bench/media.mjs): one image at a
 * time saved 70-80 MB of peak RSS and doubled the build's wall time; outside a build, on 20 of them, two AVIF
 * encodes at once took 20% less time for 50 MB more. Exits when the build disconnects.
 */
import pLimit from 'p-limit'
import { messageOf } from '../errors.js'
import { disableOperationCache, type EncodedVariant, encodeVariants, type ImageSize, probeImage } from './encode.js'
import type { ImageRequest } from './image-process.js'

disableOperationCache()
const heavy = pLimit(1)

const answer = (request: ImageRequest): Promise<ImageSize | EncodedVariant[]> =>
  request.type === 'probe'
    ? probeImage(request.bytes)
    : encodeVariants(request.bytes, request.plan, request.limitInputPixels, heavy)

process.on('message', (request: ImageRequest) => {
  answer(request).then(
    (result) => process.send?.({ id: request.id, result }),
    (error: unknown) => process.send?.({ id: request.id, error: messageOf(error) }),
  )
})
process.on('disconnect', () => process.exit(0))
