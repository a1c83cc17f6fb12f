/**
 * The static type of a formula's result, from its AST and the table's field types: what a formula field's
 * `options.result.type` reports, so a client can show its values as numbers, dates or checkboxes.
 * IF and SWITCH join their branches: text wins over anything (research §4, the IF quirk), numbers over logicals.
 */
import type { Node } from './ast';

/** A field as a formula sees it: its name (or id) and its type. */
export interface FormulaField {
  name: string;
  type: string;
}

export type StaticType = 'text' | 'number' | 'logical' | 'date' | 'array' | 'blank' | 'any';

const FIELD_TYPES: Record<string, StaticType> = {
  number: 'number',
  currency: 'number',
  percent: 'number',
  duration: 'number',
  rating: 'number',
  autoNumber: 'number',
  count: 'number',
  checkbox: 'logical',
  date: 'date',
  dateTime: 'date',
  createdTime: 'date',
  lastModifiedTime: 'date',
  multipleSelects: 'array',
  multipleRecordLinks: 'array',
  multipleAttachments: 'array',
  multipleLookupValues: 'array',
  multipleCollaborators: 'array',
  formula: 'any',
  rollup: 'any',
};

/** How a field of this type reads in a formula; types not listed read as text. */
export function fieldStaticType(type: string): StaticType {
  return FIELD_TYPES[type] ?? 'text';
}

const RETURNS: Record<StaticType, readonly string[]> = {
  text: [
    'MID',
    'LEFT',
    'RIGHT',
    'LOWER',
    'UPPER',
    'TRIM',
    'SUBSTITUTE',
    'REPLACE',
    'REPT',
    'T',
    'CONCATENATE',
    'ENCODE_URL_COMPONENT',
    'DATETIME_FORMAT',
    'DATESTR',
    'TIMESTR',
    'ARRAYJOIN',
    'RECORD_ID',
    'REGEX_EXTRACT',
    'REGEX_REPLACE',
  ],
  number: [
    'FIND',
    'SEARCH',
    'LEN',
    'VALUE',
    'ABS',
    'AVERAGE',
    'CEILING',
    'COUNT',
    'COUNTA',
    'COUNTALL',
    'EVEN',
    'EXP',
    'FLOOR',
    'INT',
    'LOG',
    'MOD',
    'ODD',
    'POWER',
    'ROUND',
    'ROUNDDOWN',
    'ROUNDUP',
    'SQRT',
    'SUM',
    'DATETIME_DIFF',
    'YEAR',
    'MONTH',
    'DAY',
    'HOUR',
    'MINUTE',
    'SECOND',
    'WEEKDAY',
    'WEEKNUM',
    'WORKDAY_DIFF',
    'TONOW',
    'FROMNOW',
  ],
  logical: [
    'AND',
    'OR',
    'XOR',
    'NOT',
    'ISERROR',
    'TRUE',
    'FALSE',
    'IS_BEFORE',
    'IS_AFTER',
    'IS_SAME',
    'REGEX_MATCH',
  ],
  date: [
    'NOW',
    'TODAY',
    'DATEADD',
    'DATETIME_PARSE',
    'WORKDAY',
    'SET_LOCALE',
    'SET_TIMEZONE',
    'CREATED_TIME',
    'LAST_MODIFIED_TIME',
  ],
  array: ['ARRAYCOMPACT', 'ARRAYFLATTEN', 'ARRAYUNIQUE', 'ARRAYSLICE'],
  blank: ['BLANK'],
  any: ['ERROR'],
};

const RETURN_OF = new Map<string, StaticType>(
  Object.entries(RETURNS).flatMap(([type, names]) => names.map((n) => [n, type as StaticType])),
);

export function joinTypes(types: readonly StaticType[]): StaticType {
  const known = types.filter((t) => t !== 'blank');
  if (known.length === 0) return 'blank';
  if (known.includes('text')) return 'text';
  if (known.every((t) => t === known[0])) return known[0] as StaticType;
  if (known.every((t) => t === 'number' || t === 'logical')) return 'number';
  return 'any';
}

export function staticType(node: Node, fields: ReadonlyMap<string, FormulaField>): StaticType {
  const of = (n: Node) => staticType(n, fields);
  switch (node.kind) {
    case 'number':
      return 'number';
    case 'string':
      return 'text';
    case 'group':
      return of(node.expr);
    case 'unary':
      return 'number';
    case 'field': {
      const field = fields.get(node.name);
      if (!field) return node.bare && /^(TRUE|FALSE)$/i.test(node.name) ? 'logical' : 'any';
      return fieldStaticType(field.type);
    }
    case 'binary': {
      if (node.op === '&') return 'text';
      if (node.op === '*' || node.op === '/') return 'number';
      if (node.op === '+' || node.op === '-') {
        const l = of(node.left);
        const r = of(node.right);
        // A date moved by days is a date; the difference of two dates is a number of days.
        if (l === 'date' && r === 'date') return node.op === '-' ? 'number' : 'any';
        return l === 'date' || (r === 'date' && node.op === '+') ? 'date' : 'number';
      }
      return 'logical';
    }
    case 'call': {
      if (node.name === 'IF')
        return joinTypes(
          node.args
            .slice(1)
            .map(of)
            .concat(node.args.length < 3 ? ['blank'] : []),
        );
      if (node.name === 'SWITCH') {
        const results = node.args
          .filter((_, i) => i > 0 && (i % 2 === 0 || i === node.args.length - 1))
          .map(of);
        const hasDefault = node.args.length % 2 === 0;
        return joinTypes(hasDefault ? results : [...results, 'blank']);
      }
      if (node.name === 'MAX' || node.name === 'MIN') {
        return node.args.length > 0 && node.args.every((a) => of(a) === 'date') ? 'date' : 'number';
      }
      return RETURN_OF.get(node.name) ?? 'any';
    }
  }
}
