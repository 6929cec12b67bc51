import type { Readable } from 'node:stream';
import pg from 'pg';
import { HearthError } from '../../errors';

/**
 * The largest message Hearth reads from the database. Its own rows are a chunk of a note or one
 * vector (4,000 dimensions as text: ~80 kB); anything near this is a broken or hostile server.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The server announced a message larger than MAX_MESSAGE_BYTES: the connection is closed before it is read. */
export class DatabaseMessageTooLargeError extends HearthError {
  constructor(where: string, announced: number, limit: number) {
    super(
      'index.message_too_large',
      `The index database at ${where} sent a message of ${mib(announced)}, more than the ${mib(limit)} Hearth reads; the connection was closed. ` +
        'Is it a PostgreSQL server Hearth should use?',
    );
  }
}

/** What the pool hands each client beside pg's own settings. */
export interface GuardOptions {
  /** `host:port/database`, for messages. */
  hearthWhere: string;
  hearthMaxMessageBytes: number;
}

type Attachable = { attachListeners(stream: Readable): void };

/**
 * The pool's client. node-postgres has no bound on a message's size (its parser grows its buffer
 * until the announced length arrived) and emits a dead connection's error on the client, which a
 * client the pool has handed out has no listener for: an unhandled 'error' event ends the process.
 * This client always listens (the query in flight gets the same error; the pool drops the client
 * when it is released), and reads the length of each message before the parser buffers it.
 */
export class GuardedClient extends pg.Client {
  constructor(config: pg.ClientConfig & GuardOptions) {
    super(config);
    this.on('error', () => {});
    // pg keeps the connection internal; attachListeners is where its parser starts reading the
    // stream (the socket, or the TLS stream once the server agreed), so the guard sees plain messages.
    const connection = (this as unknown as { connection: Attachable }).connection;
    const attach = connection.attachListeners.bind(connection);
    connection.attachListeners = (stream) => {
      guardMessageSize(stream, config.hearthMaxMessageBytes, (announced) => new DatabaseMessageTooLargeError(config.hearthWhere, announced, config.hearthMaxMessageBytes));
      attach(stream);
    };
  }
}

/**
 * Follows the backend messages on `stream` (a type byte, then a 4-byte length that counts itself)
 * and destroys the stream with `tooLarge` as soon as a header announces more than `limit` bytes.
 * Listening first, it runs before the parser copies the chunk.
 */
export function guardMessageSize(stream: Readable, limit: number, tooLarge: (announced: number) => Error): void {
  const header = Buffer.alloc(5);
  let filled = 0;
  let skip = 0;
  const onData = (chunk: Buffer) => {
    let at = 0;
    while (at < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - at);
        skip -= n;
        at += n;
        continue;
      }
      header[filled++] = chunk[at++];
      if (filled < 5) continue;
      filled = 0;
      const length = header.readUInt32BE(1);
      if (length > limit) {
        stream.off('data', onData);
        stream.destroy(tooLarge(length));
        return;
      }
      skip = Math.max(length - 4, 0);
    }
  };
  stream.on('data', onData);
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MiB`;
}
