/**
 * CType `table`: caption, header cells by `tableHeaderPosition` (1 top row, 2 first
 * column), the last row as footer when `tableTfoot` is '1'. Scrolls sideways on small screens.
 */
import { type ContentElementProps, classToken, ElementRoot, Heading } from 'typo3-headless-site/runtime'

const cellText = (cell: unknown): string =>
  typeof cell === 'string' ? cell : cell === null || cell === undefined ? '' : String(cell)

function Row({ cells, rowHeader }: { cells: unknown[]; rowHeader: boolean }) {
  return (
    <tr>
      {cells.map((cell, i) =>
        rowHeader && i === 0 ? (
          <th key={i} scope="row">
            {cellText(cell)}
          </th>
        ) : (
          <td key={i}>{cellText(cell)}</td>
        ),
      )}
    </tr>
  )
}

export default function Table(props: ContentElementProps) {
  const rows = (Array.isArray(props.bodytext) ? props.bodytext : []).filter((row): row is unknown[] =>
    Array.isArray(row),
  )
  // numbers or their text: Number() or String() of an object from the API runs its own `toString`
  const position = typeof props.tableHeaderPosition === 'object' ? 0 : Number(props.tableHeaderPosition)
  const head = position === 1 ? rows[0] : undefined
  const body = position === 1 ? rows.slice(1) : rows
  const foot =
    (props.tableTfoot === 1 || props.tableTfoot === '1') && body.length > 1 ? body[body.length - 1] : undefined
  const bodyRows = foot ? body.slice(0, -1) : body
  const caption = typeof props.tableCaption === 'string' ? props.tableCaption : ''
  const label = caption || (typeof props.header === 'string' ? props.header : '')
  return (
    <ElementRoot className="ce ce-table">
      <Heading {...props} />
      {rows.length > 0 && (
        <div className="ce-table__scroll" {...(label ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {})}>
          <table className={`ce-table__table ${classToken(props.tableClass, '')}`.trim()}>
            {caption && <caption>{caption}</caption>}
            {head && (
              <thead>
                <tr>
                  {head.map((cell, i) => (
                    <th key={i} scope="col">
                      {cellText(cell)}
                    </th>
                  ))}
                </tr>
              </thead>
            )}
            <tbody>
              {bodyRows.map((row, i) => (
                <Row key={i} cells={row} rowHeader={position === 2} />
              ))}
            </tbody>
            {foot && (
              <tfoot>
                <Row cells={foot} rowHeader={position === 2} />
              </tfoot>
            )}
          </table>
        </div>
      )}
    </ElementRoot>
  )
}
