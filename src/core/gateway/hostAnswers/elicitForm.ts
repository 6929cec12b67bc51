import { ErrorCode, McpError, type ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';

/** More fields than a person fills in one sitting: a form that long is refused, not shown. */
export const MAX_FORM_FIELDS = 20;
/** The message and each field's description are read in an input box's prompt. */
export const MAX_FORM_TEXT = 2000;
/** Titles, field names and option labels are one short line each. */
export const MAX_FORM_LABEL = 200;
export const MAX_FORM_OPTIONS = 100;

export type FieldValue = string | number | boolean | string[];

/** One field of an elicitation form as the editor asks for it. */
export type FormField = {
  name: string;
  /** The schema's title, else the property name. */
  title: string;
  description?: string;
  required: boolean;
} & (
  | { kind: 'string'; default?: string; minLength?: number; maxLength?: number; format?: string }
  | { kind: 'number'; integer: boolean; default?: number; minimum?: number; maximum?: number }
  | { kind: 'boolean'; default?: boolean }
  | { kind: 'choice'; options: { value: string; label: string }[]; default?: string }
  | { kind: 'choices'; options: { value: string; label: string }[]; default?: string[]; minItems?: number; maxItems?: number }
);

/** What an upstream asks, as the editor shows it: which server asks, why, and the fields. */
export interface ElicitForm {
  server: string;
  message: string;
  fields: FormField[];
}

function refuse(server: string, why: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `elicitation/create from upstream "${server}" refused: ${why}`);
}

function label(server: string, what: string, text: string | undefined, max = MAX_FORM_LABEL): string | undefined {
  if (text !== undefined && text.length > max) throw refuse(server, `${what} is ${text.length} characters long (at most ${max})`);
  return text;
}

type RawField = Record<string, unknown>;

/**
 * The form of an upstream's elicitation, bounded: a hostile schema (hundreds of fields, megabyte
 * strings, types no form can ask for) is refused with InvalidParams before anything is shown.
 */
export function elicitForm(server: string, params: ElicitRequestFormParams): ElicitForm {
  const message = label(server, 'the message', params.message, MAX_FORM_TEXT) ?? '';
  const properties = Object.entries(params.requestedSchema.properties ?? {});
  if (properties.length > MAX_FORM_FIELDS) throw refuse(server, `the form has ${properties.length} fields (at most ${MAX_FORM_FIELDS})`);
  const required = new Set(params.requestedSchema.required ?? []);
  const fields = properties.map(([name, raw]) => formField(server, name, raw as RawField, required.has(name)));
  return { server, message, fields };
}

function formField(server: string, name: string, raw: RawField, required: boolean): FormField {
  label(server, 'a field name', name);
  const at = (what: string) => `field "${name.slice(0, 40)}": ${what}`;
  const title = label(server, at('the title'), str(raw.title)) ?? name;
  const description = label(server, at('the description'), str(raw.description), MAX_FORM_TEXT);
  const base = { name, title, description, required };
  const options = (values: unknown, names?: unknown): { value: string; label: string }[] => {
    const list = Array.isArray(values) ? values : [];
    if (list.length > MAX_FORM_OPTIONS) throw refuse(server, at(`${list.length} options (at most ${MAX_FORM_OPTIONS})`));
    return list.map((entry, index) => {
      const value = typeof entry === 'object' && entry ? str((entry as RawField).const) : str(entry);
      const shown = typeof entry === 'object' && entry ? str((entry as RawField).title) : Array.isArray(names) ? str(names[index]) : undefined;
      if (value === undefined) throw refuse(server, at('an option that is not a string'));
      return { value: label(server, at('an option'), value)!, label: label(server, at('an option label'), shown ?? value)! };
    });
  };
  switch (raw.type) {
    case 'string':
      if (raw.enum !== undefined || raw.oneOf !== undefined) return { ...base, kind: 'choice', options: options(raw.enum ?? raw.oneOf, raw.enumNames), default: label(server, at('the default'), str(raw.default)) };
      return { ...base, kind: 'string', default: label(server, at('the default'), str(raw.default), MAX_FORM_TEXT), minLength: num(raw.minLength), maxLength: num(raw.maxLength), format: str(raw.format) };
    case 'number':
    case 'integer':
      return { ...base, kind: 'number', integer: raw.type === 'integer', default: num(raw.default), minimum: num(raw.minimum), maximum: num(raw.maximum) };
    case 'boolean':
      return { ...base, kind: 'boolean', default: typeof raw.default === 'boolean' ? raw.default : undefined };
    case 'array': {
      const items = (raw.items ?? {}) as RawField;
      const defaults = Array.isArray(raw.default) ? raw.default.filter((value): value is string => typeof value === 'string') : undefined;
      return { ...base, kind: 'choices', options: options(items.enum ?? items.anyOf), default: defaults, minItems: num(raw.minItems), maxItems: num(raw.maxItems) };
    }
    default:
      throw refuse(server, at(`type ${JSON.stringify(raw.type)?.slice(0, 40)} cannot be asked for in a form`));
  }
}

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** What is wrong with `text` typed for `field`; undefined when it is a valid answer (an input box's validateInput). */
export function fieldTextProblem(field: FormField, text: string): string | undefined {
  if (text === '') return field.required ? `${field.title} is required` : undefined;
  const value = fieldValueFromText(field, text);
  return value === undefined ? `${field.title} must be a${field.kind === 'number' && field.integer ? 'n integer' : ' number'}` : fieldValueProblem(field, value);
}

/** The typed value of what was typed for a string or number field; undefined when a number field got no number. */
export function fieldValueFromText(field: FormField, text: string): FieldValue | undefined {
  if (field.kind !== 'number') return text;
  const value = Number(text.trim());
  return text.trim() === '' || !Number.isFinite(value) || (field.integer && !Number.isInteger(value)) ? undefined : value;
}

/** Why `value` does not satisfy the field's schema; undefined when it does. */
export function fieldValueProblem(field: FormField, value: FieldValue): string | undefined {
  switch (field.kind) {
    case 'string':
      if (typeof value !== 'string') return `${field.title} must be text`;
      if (field.minLength !== undefined && value.length < field.minLength) return `${field.title} needs at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength) return `${field.title} takes at most ${field.maxLength} characters`;
      if (field.format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value)) return `${field.title} must be an email address`;
      if ((field.format === 'uri') && !URL.canParse(value)) return `${field.title} must be a URI`;
      if (field.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${field.title} must be a date (YYYY-MM-DD)`;
      if (field.format === 'date-time' && Number.isNaN(Date.parse(value))) return `${field.title} must be a date and time`;
      return undefined;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value) || (field.integer && !Number.isInteger(value))) return `${field.title} must be a${field.integer ? 'n integer' : ' number'}`;
      if (field.minimum !== undefined && value < field.minimum) return `${field.title} must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `${field.title} must be at most ${field.maximum}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${field.title} must be yes or no`;
    case 'choice':
      return typeof value === 'string' && field.options.some((option) => option.value === value) ? undefined : `${field.title} must be one of the offered options`;
    case 'choices':
      if (!Array.isArray(value) || !value.every((entry) => field.options.some((option) => option.value === entry))) return `${field.title} must be among the offered options`;
      if (field.minItems !== undefined && value.length < field.minItems) return `${field.title} needs at least ${field.minItems} choices`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `${field.title} takes at most ${field.maxItems} choices`;
      return undefined;
  }
}

/** The accepted content checked against the form: a required field missing or a value off-schema is refused. */
export function checkFormAnswer(form: ElicitForm, content: Record<string, FieldValue | undefined>): Record<string, FieldValue> {
  const checked: Record<string, FieldValue> = {};
  for (const field of form.fields) {
    const value = content[field.name] ?? field.default;
    if (value === undefined) {
      if (field.required) throw new McpError(ErrorCode.InternalError, `elicitation from upstream "${form.server}": ${field.title} was not answered`);
      continue;
    }
    const problem = fieldValueProblem(field, value);
    if (problem) throw new McpError(ErrorCode.InternalError, `elicitation from upstream "${form.server}": ${problem}`);
    checked[field.name] = value;
  }
  return checked;
}
