/**
 * CType `form_formframework` (EXT:form): the form definition as a real, accessible form.
 * It posts to the form's own TYPO3 action path; a static host answers that with an error,
 * nothing else happens.
 */
import {
  type ContentElementProps,
  ElementRoot,
  Heading,
  isRecord,
  resolveHref,
  useSite,
} from 'typo3-headless-site/runtime'
import { FormField } from '../components/FormField.js'
import { useTexts } from '../texts.js'

export default function FormFormframework(props: ContentElementProps) {
  const t = useTexts()
  const { site } = useSite()
  const form = isRecord(props.form) ? props.form : {}
  const elements = Array.isArray(form.elements) ? form.elements.filter(isRecord) : []
  const formId = `${typeof form.id === 'string' && form.id ? form.id : `form-${props.uid}`}`.replace(
    /[^A-Za-z0-9_-]/g,
    '-',
  )
  const action = resolveHref(isRecord(props.link) ? props.link.href : undefined, site.baseUrl)
  return (
    <ElementRoot className="ce ce-form">
      <Heading {...props} />
      {elements.length > 0 && (
        <form id={formId} className="form" method="post" action={action?.href}>
          {elements.map((element, i) => (
            <FormField key={i} element={element} formId={formId} />
          ))}
          <div className="form__actions">
            <button type="submit" className="btn btn--primary">
              {t.submit}
            </button>
          </div>
        </form>
      )}
    </ElementRoot>
  )
}
