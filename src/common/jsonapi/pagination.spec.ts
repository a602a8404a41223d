import { paginationLinks, paginationMeta } from './pagination';

describe('pagination', () => {
  it('reports an empty collection with zero pages and no neighbours', () => {
    expect(paginationMeta({ number: 1, size: 20, totalCount: 0 })).toEqual({
      'current-page': 1,
      'page-size': 20,
      'prev-page': null,
      'next-page': null,
      'total-pages': 0,
      'total-count': 0,
    });
  });

  it('points a page past the end back at the last real page', () => {
    const meta = paginationMeta({ number: 9, size: 20, totalCount: 45 });
    expect(meta['prev-page']).toBe(3);
    expect(meta['next-page']).toBeNull();
    expect(meta['total-pages']).toBe(3);
  });

  it('builds absolute links with encoded brackets and keeps other parameters', () => {
    const links = paginationLinks(
      'http://h:1',
      '/api/v2/x',
      { 'page[number]': '2', 'search[name]': 'a b' },
      {
        number: 2,
        size: 10,
        totalCount: 35,
      },
    );
    expect(links.self).toBe('http://h:1/api/v2/x?page%5Bnumber%5D=2&page%5Bsize%5D=10&search%5Bname%5D=a+b');
    expect(links.prev).toContain('page%5Bnumber%5D=1');
    expect(links.next).toContain('page%5Bnumber%5D=3');
    expect(links.last).toContain('page%5Bnumber%5D=4');
  });
});
