import { refusedAccept, refusedContentType } from './negotiation';

describe('JSON:API content negotiation', () => {
  it.each([
    ['application/vnd.api+json; charset=utf-8', true],
    ['application/vnd.api+json;ext=bulk', true],
    ['Application/VND.API+JSON; profile="x"', true],
    ['application/vnd.api+json', false],
    ['application/json; charset=utf-8', false],
    ['text/plain', false],
    [undefined, false],
  ])('Content-Type %s refused: %s', (header, refused) => {
    expect(refusedContentType(header)).toBe(refused);
  });

  it.each([
    ['application/vnd.api+json; ext=bulk', true],
    ['application/vnd.api+json; ext=bulk, application/vnd.api+json; profile=x', true],
    ['application/vnd.api+json; ext=bulk, */*', true],
    ['application/vnd.api+json; ext=bulk, application/vnd.api+json', false],
    ['application/vnd.api+json;q=0.5', false],
    ['application/json', false],
    ['*/*', false],
    [undefined, false],
  ])('Accept %s refused: %s', (header, refused) => {
    expect(refusedAccept(header)).toBe(refused);
  });
});
