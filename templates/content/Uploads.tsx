/**
 * CType `uploads`: a file list. `displayInformation` (uploads_type) '1' adds a file type
 * badge, '2' a thumbnail for images; size and description per their display flags.
 */
import {
  type ContentElementProps,
  ElementRoot,
  fileProps,
  Heading,
  Image,
  isFile,
  SafeLink,
} from 'typo3-headless-site/runtime'

const on = (flag: unknown): boolean => flag === '1' || flag === 1 || flag === true

export default function Uploads(props: ContentElementProps) {
  const files = (Array.isArray(props.media) ? props.media : []).filter(isFile)
  const { displayInformation } = props
  const mode =
    typeof displayInformation === 'string' || typeof displayInformation === 'number' ? String(displayInformation) : '0'
  const target = typeof props.target === 'string' && props.target !== '' ? props.target : undefined
  return (
    <ElementRoot className="ce ce-uploads">
      <Heading {...props} />
      {files.length > 0 && (
        <ul className="ce-uploads__list">
          {files.map((file, i) => {
            const p = fileProps(file)
            const name =
              (typeof p.title === 'string' && p.title) ||
              p.filename ||
              file.publicUrl.split('/').pop() ||
              file.publicUrl
            const ext = (
              p.extension ??
              String(p.filename ?? '')
                .split('.')
                .pop() ??
              ''
            ).toUpperCase()
            return (
              <li key={i} className="ce-uploads__item">
                {mode === '2' && p.type === 'image' && <Image file={file} className="ce-uploads__thumb" />}
                {mode === '1' && ext && (
                  <span className="ce-uploads__type" aria-hidden="true">
                    {ext}
                  </span>
                )}
                <div>
                  <SafeLink href={file.publicUrl} target={target} className="ce-uploads__link">
                    {name}
                  </SafeLink>
                  {on(props.displayFileSizeInformation) && p.size && (
                    <span className="ce-uploads__size">{` (${ext ? `${ext}, ` : ''}${p.size})`}</span>
                  )}
                  {on(props.displayDescription) && typeof p.description === 'string' && p.description !== '' && (
                    <p className="ce-uploads__description">{p.description}</p>
                  )}
                </div>
              </li>
            )
          })}
        </ul>
      )}
    </ElementRoot>
  )
}
