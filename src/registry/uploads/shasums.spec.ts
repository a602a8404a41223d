import { DomainError } from '../../common/errors/domain-error';
import { parseSha256Sums } from './shasums';

const A = 'a'.repeat(64);
const B = '0123456789abcdef'.repeat(4);
const parse = (text: string | Uint8Array) =>
  parseSha256Sums(typeof text === 'string' ? Buffer.from(text) : text);

function detailOf(text: string | Uint8Array): string | undefined {
  try {
    parse(text);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('invalid');
    return (err as DomainError).items[0].detail;
  }
  return undefined;
}

describe('parseSha256Sums', () => {
  it('reads sha256sum output into filename → checksum', () => {
    const sums = parse(
      `${A}  terraform-provider-x_1.0.0_linux_amd64.zip\n${B}  terraform-provider-x_1.0.0_darwin_arm64.zip\n`,
    );
    expect([...sums]).toEqual([
      ['terraform-provider-x_1.0.0_linux_amd64.zip', A],
      ['terraform-provider-x_1.0.0_darwin_arm64.zip', B],
    ]);
  });

  it('accepts binary-mode markers, CRLF line ends and a missing final newline', () => {
    const sums = parse(`${A} *one.zip\r\n${B}  two.zip`);
    expect(sums.get('one.zip')).toBe(A);
    expect(sums.get('two.zip')).toBe(B);
  });

  it('lower-cases upper-case hex', () => {
    expect(parse(`${A.toUpperCase()}  f.zip\n`).get('f.zip')).toBe(A);
  });

  it('keeps spaces inside filenames', () => {
    expect(parse(`${A}  my file.zip\n`).get('my file.zip')).toBe(A);
  });

  it.each([
    ['an empty document', '', 'SHA256SUMS lists no files'],
    ['a lone newline', '\n', 'SHA256SUMS line 1 is not "<64 hex digits>  <filename>"'],
    ['a short hash', `${'a'.repeat(63)}  f.zip\n`, 'SHA256SUMS line 1 is not "<64 hex digits>  <filename>"'],
    [
      'a non-hex hash',
      `${'g'.repeat(64)}  f.zip\n`,
      'SHA256SUMS line 1 is not "<64 hex digits>  <filename>"',
    ],
    ['a single space', `${A} f.zip\n`, 'SHA256SUMS line 1 is not "<64 hex digits>  <filename>"'],
    ['no filename', `${A}  \n`, 'SHA256SUMS line 1 is not "<64 hex digits>  <filename>"'],
    [
      'a blank line in between',
      `${A}  a.zip\n\n${B}  b.zip\n`,
      'SHA256SUMS line 2 is not "<64 hex digits>  <filename>"',
    ],
    ['a duplicate filename', `${A}  a.zip\n${B}  a.zip\n`, 'SHA256SUMS lists a.zip more than once'],
    ['prose', 'this is not a checksum file', 'SHA256SUMS line 1 is not "<64 hex digits>  <filename>"'],
    [
      'an over-long filename',
      `${A}  ${'f'.repeat(256)}\n`,
      'SHA256SUMS line 1 names a file longer than 255 characters',
    ],
  ])('refuses %s', (_, text, detail) => {
    expect(detailOf(text)).toBe(detail);
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(detailOf(Uint8Array.from([0xff, 0xfe, 0x00, 0x41]))).toBe('SHA256SUMS must be UTF-8 text');
  });
});
