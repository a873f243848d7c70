import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvField, csvLine, STATEMENT_COLUMNS, STATEMENT_HEADER } from './statement-csv.js';

describe('statement CSV fields', () => {
  it('writes plain text, numbers and empty values as they are', () => {
    assert.equal(csvField('Acme Logistics'), 'Acme Logistics');
    assert.equal(csvField(125000), '125000');
    assert.equal(csvField(-5), '-5', 'a number is a number, not third-party text');
    assert.equal(csvField(null), '');
    assert.equal(csvField(undefined), '');
    assert.equal(csvField(''), '');
  });

  it('quotes a field holding a comma, a semicolon, a tab, a double quote, a CR or an LF (quotes doubled, RFC 4180)', () => {
    assert.equal(csvField('Comma, Inc'), '"Comma, Inc"');
    assert.equal(csvField('Semi;colon'), '"Semi;colon"');
    assert.equal(csvField('Tab\there'), '"Tab\there"');
    assert.equal(csvField('Say "hi"'), '"Say ""hi"""');
    assert.equal(csvField('one\rtwo'), '"one\rtwo"');
    assert.equal(csvField('one\ntwo'), '"one\ntwo"');
    assert.equal(csvField('"'), '""""');
  });

  it('puts an apostrophe before text that starts like a formula (= + - @ tab CR)', () => {
    assert.equal(csvField('=1+2'), "'=1+2");
    assert.equal(csvField('+34 600'), "'+34 600");
    assert.equal(csvField('-TRK'), "'-TRK");
    assert.equal(csvField('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvField('=HYPERLINK("http://evil.test")'), `"'=HYPERLINK(""http://evil.test"")"`);
    assert.equal(csvField('\t=1'), `"'\t'=1"`, 'the tab starts a formula and is a separator: both segments are guarded');
    assert.equal(csvField('\r=1'), `"'\r'=1"`);
  });

  it('guards every segment that starts after a separator inside the field (; , tab CR LF), not only the first', () => {
    assert.equal(csvField('Semi;=2+5'), `"Semi;'=2+5"`);
    assert.equal(csvField('a,+1'), `"a,'+1"`);
    assert.equal(csvField('a\t-1'), `"a\t'-1"`);
    assert.equal(csvField('a\r@x'), `"a\r'@x"`);
    assert.equal(csvField('a\n=cmd|x'), `"a\n'=cmd|x"`);
    assert.equal(csvField('=a;=b,=c'), `"'=a;'=b,'=c"`);
    assert.equal(csvField('a;\t=1'), `"a;'\t'=1"`, 'a tab after a separator: a segment of its own, then the next one');
    assert.equal(csvField('a;;=1'), `"a;;'=1"`, 'an empty segment in between');
    assert.equal(csvField('TRK-1;REF=2'), '"TRK-1;REF=2"', 'a sign inside a segment is no formula');
    assert.equal(csvField('a; =1'), '"a; =1"', 'a segment that starts with a space is no formula');
  });

  it('writes whole lines: the columns in order, CRLF line ends', () => {
    assert.equal(STATEMENT_HEADER, `${STATEMENT_COLUMNS.join(',')}\r\n`);
    const line = csvLine({ record_type: 'payment', id: 'p1', customer_name: 'Semi;=2+5', amount_minor: 100, reference: null });
    assert.equal(line, `payment,p1,,,,"Semi;'=2+5",,100,,,,,,\r\n`);
    assert.equal(line.split(',').length, STATEMENT_COLUMNS.length);
  });
});
