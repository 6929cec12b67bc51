/**
 * A writable stream that passes every string (or UTF-8 buffer) written to it through the redactor
 * and forwards everything else (isTTY, columns, events) to the real stream, so progress bars and
 * TTY checks keep working on the wrapped one.
 */
import type { Redactor } from '../core/logging/redactor';

export function redactingStream<S extends NodeJS.WritableStream>(inner: S, redactor: Redactor): S {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : undefined;
    const out = text === undefined ? chunk : redactor.redact(text);
    return (inner.write as (...args: unknown[]) => boolean)(out, ...rest);
  };
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === 'write') return write;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
