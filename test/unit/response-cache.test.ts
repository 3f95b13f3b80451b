import { ResponseCache } from '../../api/response-cache';

describe('ResponseCache', () => {
  it('evicts least recently used entries beyond its byte budget', () => {
    const cache = new ResponseCache(100);
    cache.set('a', Buffer.from('x'.repeat(20)));
    cache.set('b', Buffer.from('y'.repeat(20)));
    cache.set('c', Buffer.from('z'.repeat(20)));
    expect(cache.get('a')).toHaveLength(20); // a is now the most recent
    cache.set('d', Buffer.from('w'.repeat(25)));
    cache.set('e', Buffer.from('v'.repeat(25))); // 110 bytes: the least recent (b) goes
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd', 'e'].map((k) => cache.get(k)?.length)).toEqual([20, 20, 25, 25]);
  });

  it('does not keep a body larger than a quarter of the budget', () => {
    const cache = new ResponseCache(100);
    cache.set('big', Buffer.from('x'.repeat(26)));
    expect(cache.get('big')).toBeUndefined();
  });
});
