/** Text with a gallery (textpic, textmedia, image): the gallery above, below or beside the text. */
import {
  type ContentElementProps,
  classToken,
  cx,
  ElementRoot,
  Gallery,
  Heading,
  isRecord,
  RichText,
} from 'typo3-headless-site/runtime'

export function MediaText({ className, ...props }: ContentElementProps & { className: string }) {
  const gallery = isRecord(props.gallery) ? props.gallery : undefined
  const position = isRecord(gallery?.position) ? gallery.position : {}
  const vertical = position.vertical === 'below' || position.vertical === 'intext' ? position.vertical : 'above'
  const side = position.horizontal === 'right' ? 'right' : 'left'
  const media = gallery ? <Gallery gallery={gallery} eager={props.index === 0} /> : null
  const text = <RichText html={props.bodytext} className="ce-bodytext" />
  return (
    <ElementRoot
      className={cx(
        'ce',
        className,
        'ce-media-text',
        `ce-media-text--${vertical}`,
        vertical === 'intext' && `ce-media-text--${side}`,
        `ce--${classToken(props.appearance?.layout, 'default')}`,
      )}
    >
      <Heading {...props} />
      <div className="ce-media-text__body">
        {vertical !== 'below' && media}
        {text}
        {vertical === 'below' && media}
      </div>
    </ElementRoot>
  )
}
