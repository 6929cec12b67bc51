// Finding 14 of the third attack review: a database user name without a password was fed to the
// redactor as a secret, so the word `postgres` became «redacted» in `hearth config` and in every
// error. A database URL's user is a role name; its password (or a token in another URL's user
// slot) stays a secret.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskConfigSecrets, MASKED_SECRET } from '../../../src/core/config/maskSecrets';
import { REDACTED, Redactor } from '../../../src/core/logging/redactor';

test('a postgres URL without a password: the user name `postgres` stays readable; a password is still redacted', () => {
  const r = new Redactor();
  r.addUrl('postgres://postgres@db.example.com:5432/notes');
  r.addUrl('postgresql://hearth:Sup3rSecretPw@db.example.com/notes');
  r.addUrl('https://tok-only-user-99@git.example/repo');
  const line = 'password authentication failed for user "postgres"; hearth Sup3rSecretPw tok-only-user-99';
  assert.equal(r.redact(line), `password authentication failed for user "postgres"; hearth ${REDACTED} ${REDACTED}`);
});

test('hearth config: a database URL keeps its user name, masks its password; other URLs mask the whole userinfo', () => {
  const masked = maskConfigSecrets({
    processing: { database_url: 'postgres://postgres@db.example.com/notes' },
    other: { a: 'postgresql://hearth:Sup3rSecretPw@db.example.com/notes', b: 'postgres://hearth:{env:PGPASS}@db/x', c: 'https://tok-user@git.example/r' },
  });
  assert.deepEqual(masked, {
    processing: { database_url: 'postgres://postgres@db.example.com/notes' },
    other: { a: `postgresql://hearth:${MASKED_SECRET}@db.example.com/notes`, b: 'postgres://hearth:{env:PGPASS}@db/x', c: `https://${MASKED_SECRET}@git.example/r` },
  });
});
