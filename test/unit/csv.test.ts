import { Readable } from 'node:stream';
import { crlfRows } from '../../src/db/copy-csv';
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

describe('crlfRows (COPY … WITH CSV output to RFC 4180 line ends)', () => {
  /** The transform's output for `input` cut into chunks at `cuts`. */
  async function through(input: string, cuts: number[]): Promise<string> {
    const bytes = Buffer.from(input);
    const bounds = [0, ...cuts, bytes.length];
    const chunks = bounds.slice(1).map((end, i) => bytes.subarray(bounds[i], end));
    const out: Buffer[] = [];
    for await (const chunk of Readable.from(chunks).pipe(crlfRows('h1,h2\r\n'))) out.push(chunk as Buffer);
    return Buffer.concat(out).toString();
  }

  // COPY's own output: rows end in LF; a quoted field keeps its LF and doubles its quotes.
  const copied = 'a,"two\nlines"\n"say ""hi""\n, ok",b\n,\n"""\n"""\n';
  const expected = 'h1,h2\r\na,"two\nlines"\r\n"say ""hi""\n, ok",b\r\n,\r\n"""\n"""\r\n';

  it('ends rows in CRLF and keeps line breaks inside quoted fields, after the header', async () => {
    expect(await through(copied, [])).toBe(expected);
    expect(await through('', [])).toBe('h1,h2\r\n');
  });

  it('gives the same bytes however the stream is cut', async () => {
    for (let cut = 1; cut < copied.length; cut++) expect(await through(copied, [cut])).toBe(expected);
    expect(
      await through(
        copied,
        Array.from({ length: copied.length - 1 }, (_, i) => i + 1),
      ),
    ).toBe(expected);
  });
});
