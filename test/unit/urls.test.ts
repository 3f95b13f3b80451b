import { linkableUrl } from '../../src/domain/urls';

describe('linkableUrl (profile links on the share page and in the app)', () => {
  it('keeps http and https addresses', () => {
    expect(linkableUrl('https://network.example/in/ada-lovelace-p0000001')).toBe('https://network.example/in/ada-lovelace-p0000001');
    expect(linkableUrl(' http://example.org/x?y=1 ')).toBe('http://example.org/x?y=1');
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'file:///etc/passwd',
    '//evil.example/x',
    'not a url',
    '',
    null,
    undefined,
    42,
  ])('refuses %p', (value) => {
    expect(linkableUrl(value)).toBeNull();
  });
});
