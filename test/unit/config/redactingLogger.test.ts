import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Logger, LogLevel } from '../../../src/core/host';
import { effectiveLogLevel, levelFilteredLogger, REDACTED, Redactor, redactingLogger } from '../../../src/core/logging/redactingLogger';
import { sinkLogger } from '../../../src/core/logging/sinkLogger';

function recorder(): { logger: Logger; lines: { level: LogLevel; message: string; args: unknown[] }[] } {
  const lines: { level: LogLevel; message: string; args: unknown[] }[] = [];
  return { lines, logger: sinkLogger((level, message, args) => void lines.push({ level, message, args })) };
}

test('redactingLogger scrubs secrets from messages, string args, errors and objects', () => {
  const redactor = new Redactor();
  redactor.add('sk-test-1234567890');
  redactor.add('ab'); // too short to redact safely: ignored
  const { logger, lines } = recorder();
  const log = redactingLogger(logger, redactor);
  log.info('calling with key sk-test-1234567890 now', 'Bearer sk-test-1234567890', new Error('bad key sk-test-1234567890'), { headers: { authorization: 'sk-test-1234567890' } }, 42);
  const [line] = lines;
  assert.equal(line.message, `calling with key ${REDACTED} now`);
  assert.equal(line.args[0], `Bearer ${REDACTED}`);
  assert.equal((line.args[1] as Error).message, `bad key ${REDACTED}`);
  assert.ok(!String(line.args[2]).includes('sk-test'));
  assert.equal(line.args[3], 42);
  assert.equal(redactor.redact('about abc'), 'about abc');
});

test('a longer secret containing a shorter one is redacted whole', () => {
  const redactor = new Redactor();
  redactor.add('secret');
  redactor.add('secret-extended-value');
  assert.equal(redactor.redact('x secret-extended-value y secret'), `x ${REDACTED} y ${REDACTED}`);
});

test('levelFilteredLogger drops messages above the threshold and follows a live level', () => {
  const { logger, lines } = recorder();
  let level: LogLevel = 'info';
  const log = levelFilteredLogger(logger, () => level);
  log.debug('hidden');
  log.info('shown');
  log.error('shown too');
  level = 'trace';
  log.trace('now shown');
  assert.deepEqual(lines.map((l) => l.message), ['shown', 'shown too', 'now shown']);
});

test('effectiveLogLevel: verbose raises to debug, never lowers trace', () => {
  assert.equal(effectiveLogLevel({ logging: { level: 'info' }, cli: { verbose: true } }), 'debug');
  assert.equal(effectiveLogLevel({ logging: { level: 'trace' }, cli: { verbose: true } }), 'trace');
  assert.equal(effectiveLogLevel({ logging: { level: 'warn' }, cli: { verbose: false } }), 'warn');
});
