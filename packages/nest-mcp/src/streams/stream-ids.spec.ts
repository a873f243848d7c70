import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  clientRequestStreamId,
  isRequestStream,
  isStandaloneStream,
  requestIdOfStream,
  requestStreamId,
  sessionOfStream,
  standaloneStreamId,
} from './stream-ids.js';

describe('stream ids', () => {
  it('name their session, and a request stream its JSON-RPC request id', () => {
    assert.equal(sessionOfStream(standaloneStreamId('s1')), 's1');
    assert.equal(isStandaloneStream(standaloneStreamId('s1')), true);
    for (const id of [7, 0, 'call-1', 'a.b/c:d']) {
      const stream = requestStreamId('s1', id);
      assert.equal(sessionOfStream(stream), 's1');
      assert.equal(isStandaloneStream(stream), false);
      assert.equal(requestIdOfStream(stream), id);
    }
    assert.notEqual(requestStreamId('s1', 1), requestStreamId('s1', 1), 'each request stream is new');
  });

  it('leave out a request id too long to carry, and read nothing from a malformed one', () => {
    const stream = requestStreamId('s1', 'x'.repeat(500));
    assert.equal(requestIdOfStream(stream), undefined);
    assert.equal(requestIdOfStream('s1/post-abc.%%%'), undefined);
    assert.equal(requestIdOfStream(standaloneStreamId('s1')), undefined);
  });

  it("tell a request's answer stream from the standalone stream and the layer's records of server→client requests", () => {
    assert.equal(isRequestStream(requestStreamId('s1', 1)), true);
    assert.equal(isRequestStream(standaloneStreamId('s1')), false);
    const record = clientRequestStreamId('s1', 'nonce-1');
    assert.equal(sessionOfStream(record), 's1');
    assert.equal(isRequestStream(record), false, 'a record is not replayed to the client');
    assert.equal(isStandaloneStream(record), false);
  });
});
