import { test } from 'node:test';
import assert from 'node:assert/strict';
import { channelLogger, CHANNEL_LEVEL, type LogChannelLike } from '../../../src/vscode/host/channelLogger';
import { levelFilteredLogger, redactingLogger, Redactor } from '../../../src/core/logging/redactingLogger';

function fakeChannel(logLevel: number): LogChannelLike & { lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: unknown, ...args: unknown[]) => {
    lines.push(`${level} ${String(message)}${args.length ? ' ' + args.map(String).join(' ') : ''}`);
  };
  return { logLevel, lines, trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

test('messages the channel would drop are written at info with their level as a tag', () => {
  const channel = fakeChannel(CHANNEL_LEVEL.info);
  const log = channelLogger(channel);
  log.debug('loaded', 3);
  log.trace('detail');
  log.warn('careful');
  assert.deepEqual(channel.lines, ['info [debug] loaded 3', 'info [trace] detail', 'warn careful']);
});

test('a channel already at trace gets every level natively', () => {
  const channel = fakeChannel(CHANNEL_LEVEL.trace);
  const log = channelLogger(channel);
  log.debug('d');
  log.error('e');
  assert.deepEqual(channel.lines, ['debug d', 'error e']);
});

test('composed as in activate(): the config level filters, then secrets are redacted', () => {
  const channel = fakeChannel(CHANNEL_LEVEL.info);
  const redactor = new Redactor();
  let level: 'info' | 'debug' = 'info';
  const log = redactingLogger(levelFilteredLogger(channelLogger(channel), () => level), redactor);
  redactor.add('sk-very-secret-key');
  log.debug('hidden at info');
  log.info('key is sk-very-secret-key');
  level = 'debug';
  log.debug('request', { authorization: 'Bearer sk-very-secret-key' });
  assert.equal(channel.lines.length, 2);
  assert.equal(channel.lines.some((line) => line.includes('sk-very-secret-key')), false);
  assert.match(channel.lines[0], /^info key is «redacted»$/);
  assert.match(channel.lines[1], /^info \[debug\] request .*«redacted»/);
});
