import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BOOLEAN_SPELLINGS, booleanEnv, parseBoolean } from './boolean-variable.js';
import { coreConfigFromEnv, InvalidEnvironmentError } from './environment.js';

describe('booleanEnv', () => {
  it('reads true/false, 1/0, yes/no and on/off, in any case, spaces around ignored', () => {
    for (const value of ['true', '1', 'yes', 'on', 'TRUE', 'True', 'Yes', 'ON', ' true ', '\t1\n']) {
      assert.equal(booleanEnv('FLAG', value, false), true, JSON.stringify(value));
    }
    for (const value of ['false', '0', 'no', 'off', 'FALSE', 'False', 'No', 'OFF', ' false ', '\t0\n']) {
      assert.equal(booleanEnv('FLAG', value, true), false, JSON.stringify(value));
    }
  });

  it('answers the default when unset or blank', () => {
    assert.equal(booleanEnv('FLAG', undefined, true), true);
    assert.equal(booleanEnv('FLAG', undefined, false), false);
    assert.equal(booleanEnv('FLAG', '', true), true);
    assert.equal(booleanEnv('FLAG', '  ', false), false);
  });

  it('refuses anything else, naming the variable, the value and the accepted spellings', () => {
    for (const value of ['maybe', 'truee', 'y', 'n', 't', '2', '-1', '01', 'enabled', 'yes please', 'null']) {
      assert.throws(
        () => booleanEnv('DEMO', value, false),
        (error: Error) => {
          assert.equal(error.message, `DEMO must be true or false (${BOOLEAN_SPELLINGS}), got ${JSON.stringify(value)}`);
          return true;
        },
      );
    }
    assert.match(BOOLEAN_SPELLINGS, /^true\/false, 1\/0, yes\/no, on\/off, any case$/);
  });
});

describe('parseBoolean', () => {
  it('answers undefined for a value that is not an accepted spelling, blank included', () => {
    assert.equal(parseBoolean('On'), true);
    assert.equal(parseBoolean(' no '), false);
    assert.equal(parseBoolean(''), undefined);
    assert.equal(parseBoolean('maybe'), undefined);
  });
});

describe('on/off variables of the core DTO (EnvironmentVariables)', () => {
  it('take the same spellings, and a bad one is listed with the accepted ones', () => {
    assert.equal(coreConfigFromEnv({ DATABASE_MIGRATE: 'off' }).database.migrate, false);
    assert.equal(coreConfigFromEnv({ DATABASE_MIGRATE: ' No ' }).database.migrate, false);
    assert.equal(coreConfigFromEnv({ DATABASE_MIGRATE: '' }).database.migrate, true);
    assert.equal(coreConfigFromEnv({ MCP_STREAMS: 'Yes' }).mcp.streams, true);
    assert.equal(coreConfigFromEnv({ MCP_STREAMS: '1' }).mcp.streams, true);
    assert.throws(
      () => coreConfigFromEnv({ DATABASE_MIGRATE: 'maybe', MCP_STREAMS: 'enabled' }),
      (error: InvalidEnvironmentError) => {
        assert.deepEqual(error.problems, [
          `DATABASE_MIGRATE must be true or false (${BOOLEAN_SPELLINGS}) (got "maybe")`,
          `MCP_STREAMS must be true or false (${BOOLEAN_SPELLINGS}) (got "enabled")`,
        ]);
        return true;
      },
    );
  });
});
