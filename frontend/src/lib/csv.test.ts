import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv';

describe('csvField', () => {
  it('leaves plain text and numbers as they are and writes nothing for null', () => {
    expect([csvField('example.com'), csvField(85), csvField(0), csvField(null), csvField(undefined)]).toEqual(['example.com', '85', '0', '', '']);
  });

  it('quotes a field with a comma, a quote, CR or LF, doubling its quotes (RFC 4180)', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
  });

  it('puts an apostrophe before text a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://evil.test")')).toBe(`"'=HYPERLINK(""http://evil.test"")"`);
    expect(csvField('+1+2')).toBe("'+1+2");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('\rx')).toBe(`"'\rx"`);
  });

  it('does not touch a formula character inside the text or a negative number', () => {
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(-5)).toBe('-5');
  });
});

describe('toCsv', () => {
  it('writes the header first, in the order given, and ends every line with CRLF', () => {
    // Act
    const csv = toCsv(['Name', 'Score'], [['a.test', 90], ['b,c.test', null]]);

    // Assess
    expect(csv).toBe('Name,Score\r\na.test,90\r\n"b,c.test",\r\n');
  });
});
