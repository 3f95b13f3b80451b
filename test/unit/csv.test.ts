import { csvField, csvLine } from '../../src/domain/csv';

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
