import { csvCell, csvField, csvLine } from '../../src/domain/csv';

describe('RFC 4180 CSV', () => {
  it('quotes only fields that need it and doubles quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rx')).toBe('"cr\rx"');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(0)).toBe('0');
    expect(csvField('Zoë, Łódź — 東京')).toBe('"Zoë, Łódź — 東京"');
  });

  it('ends lines with CRLF', () => {
    expect(csvLine(['a', 1, '', 'x"y'])).toBe('a,1,,"x""y"\r\n');
  });
});

describe('CSV formula injection (OWASP)', () => {
  it('writes text that starts with = + - @, a tab or a CR with a leading quote, then quotes as RFC 4180 says', () => {
    expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'].map(csvCell)).toEqual(["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx", "'\rx"]);
    expect(csvField('=HYPERLINK("https://evil.example","x")')).toBe('"\'=HYPERLINK(""https://evil.example"",""x"")"');
    expect(csvField('-2+3,x')).toBe(`"'-2+3,x"`);
    // Anywhere but the start, and numbers (ours), stay as they are.
    expect(['a=b', ' =x', 'x-1', 'plain'].map(csvCell)).toEqual(['a=b', ' =x', 'x-1', 'plain']);
    expect([csvCell(-1), csvCell(0), csvCell(null)]).toEqual(['-1', '0', '']);
  });
});
