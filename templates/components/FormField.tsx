/** One EXT:form element (of a `form_formframework` content element) as an accessible form control. */
import type { ReactNode } from 'react'
import { isRecord } from 'typo3-headless-site/runtime'
import { useTexts } from '../texts.js'

const str = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : ''

const INPUT_TYPES: Record<string, string> = {
  Text: 'text',
  Email: 'email',
  Telephone: 'tel',
  Url: 'url',
  Number: 'number',
  Date: 'date',
  Password: 'password',
  AdvancedPassword: 'password',
}

// EXT:form sends `Text`, `Fieldset`…; some form definitions use lower case (`text`, `fieldset`).
const typeOf = (value: unknown): string => {
  const type = str(value)
  return type.charAt(0).toUpperCase() + type.slice(1)
}

export function FormField({ element, formId }: { element: Record<string, unknown>; formId: string }) {
  const t = useTexts()
  const type = typeOf(element.type)
  const props = isRecord(element.properties) ? element.properties : {}
  const attrs = isRecord(props.fluidAdditionalAttributes) ? props.fluidAdditionalAttributes : {}
  const validators = Array.isArray(element.validators) ? element.validators.filter(isRecord) : []
  const required =
    'required' in attrs ||
    element.required === true ||
    validators.some((v) => v.identifier === 'NotEmpty' || v.identifier === 'required')
  const placeholder = str(attrs.placeholder) || str(element.placeholder) || undefined
  const id = `${formId}-${str(element.identifier) || 'field'}`.replace(/[^A-Za-z0-9_-]/g, '-')
  const name = str(element.name) || undefined
  const label = str(element.label)
  const description = str(props.elementDescription) || str(element.description)
  const options = isRecord(props.options) ? Object.entries(props.options) : []
  const children = Array.isArray(element.elements) ? element.elements.filter(isRecord) : []
  const described = description ? `${id}-description` : undefined
  const common = {
    id,
    name,
    required,
    'aria-describedby': described,
    defaultValue: str(element.defaultValue ?? element.value) || undefined,
  }

  if (type === 'Fieldset' || type === 'GridRow') {
    const inner = children.map((child, i) => <FormField key={i} element={child} formId={formId} />)
    return type === 'Fieldset' ? (
      <fieldset className="form__fieldset">
        {label && <legend>{label}</legend>}
        {inner}
      </fieldset>
    ) : (
      <div className="form__row">{inner}</div>
    )
  }
  if (type === 'Hidden') return <input type="hidden" name={name} defaultValue={str(element.defaultValue)} />
  if (type === 'Honeypot')
    return (
      <input type="text" name={name} className="visually-hidden" tabIndex={-1} autoComplete="off" aria-hidden="true" />
    )
  if (type === 'StaticText') return <p className="form__text">{str(props.text) || label}</p>
  if (!label) return null
  const labelEl = (
    <label htmlFor={id} className="form__label">
      {label}
      {required && <span className="form__required">{` (${t.required})`}</span>}
    </label>
  )
  let control: ReactNode
  if (type === 'Textarea') control = <textarea {...common} rows={5} placeholder={placeholder} />
  else if (type === 'SingleSelect' || type === 'MultiSelect') {
    control = (
      <select {...common} multiple={type === 'MultiSelect'}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {str(text)}
          </option>
        ))}
      </select>
    )
  } else if (type === 'Checkbox') {
    return (
      <div className="form__field form__field--check">
        <input type="checkbox" id={id} name={name} required={required} value="1" aria-describedby={described} />
        {labelEl}
      </div>
    )
  } else if (type === 'RadioButton' || type === 'MultiCheckbox') {
    return (
      <fieldset className="form__field form__choices" aria-describedby={described}>
        <legend>{label}</legend>
        {options.map(([value, text], i) => (
          <label key={value} className="form__choice">
            <input
              type={type === 'RadioButton' ? 'radio' : 'checkbox'}
              name={type === 'RadioButton' ? name : `${name}[]`}
              value={value}
              required={required && type === 'RadioButton' && i === 0}
            />
            {str(text)}
          </label>
        ))}
        {described && (
          <p id={described} className="form__description">
            {description}
          </p>
        )}
      </fieldset>
    )
  } else {
    control = <input {...common} type={INPUT_TYPES[type] ?? 'text'} placeholder={placeholder} />
  }
  return (
    <div className="form__field">
      {labelEl}
      {control}
      {described && (
        <p id={described} className="form__description">
          {description}
        </p>
      )}
    </div>
  )
}
