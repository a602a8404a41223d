import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { SignedLinks } from '../storage/signed-links';
import { RegistryProviderVersionEntity } from './entities/registry-provider-version.entity';
import {
  DOWNLOAD_LINK_LIFETIME_SECONDS,
  PURPOSE,
  RegistryLinks,
  UPLOAD_LINK_LIFETIME_SECONDS,
} from './registry-links';

describe('RegistryLinks', () => {
  const config = new AppConfig({
    SIGNING_SECRET: 'registry-links-unit-test-signing-secret',
    DATA_DIR: '/tmp/plinth-unit',
  });
  let now = new Date('2030-01-01T10:17:00Z');
  const clock: Clock = { now: () => now };
  const signed = new SignedLinks(config, clock);
  const sut = new RegistryLinks(signed, clock);
  const claimsOf = (url: string) => signed.verify(url.split('/uploads/')[1]);
  const seconds = () => Math.floor(now.getTime() / 1000);

  it('makes upload links valid for at least 25 hours, on the hour', () => {
    const claims = claimsOf(sut.upload('http://h', PURPOSE.shasumsUpload, 'provver-1'));
    expect(claims).toMatchObject({ purpose: 'provider-shasums-upload', resourceId: 'provver-1' });
    expect(claims.expiresAt - seconds()).toBeGreaterThanOrEqual(UPLOAD_LINK_LIFETIME_SECONDS);
    expect(claims.expiresAt - seconds()).toBeLessThan(UPLOAD_LINK_LIFETIME_SECONDS + 3600);
    expect(claims.expiresAt % 3600).toBe(0);
  });

  it('makes download links valid for at least an hour', () => {
    const claims = claimsOf(sut.download('http://h', PURPOSE.binaryDownload, 'provpltfrm-1'));
    expect(claims.expiresAt - seconds()).toBeGreaterThanOrEqual(DOWNLOAD_LINK_LIFETIME_SECONDS);
    expect(claims.expiresAt - seconds()).toBeLessThan(DOWNLOAD_LINK_LIFETIME_SECONDS + 300);
  });

  it('gives the same link to requests within one bucket', () => {
    const first = sut.upload('http://h', PURPOSE.shasumsUpload, 'provver-1');
    now = new Date(now.getTime() + 60_000);
    expect(sut.upload('http://h', PURPOSE.shasumsUpload, 'provver-1')).toBe(first);
  });

  it('switches each version link from upload to download as its file arrives', () => {
    const version = Object.assign(new RegistryProviderVersionEntity(), {
      id: 'provver-1',
      shasumsUploaded: true,
      shasumsSigUploaded: false,
    });
    const links = sut.version('http://h', version, true);
    expect(Object.keys(links)).toEqual(['shasums-download', 'shasums-sig-upload']);
    expect(claimsOf(links['shasums-download']).purpose).toBe('provider-shasums-download');
    expect(claimsOf(links['shasums-sig-upload']).purpose).toBe('provider-shasums-sig-upload');
  });

  it('hands upload links only to callers who may upload', () => {
    const version = Object.assign(new RegistryProviderVersionEntity(), {
      id: 'provver-1',
      shasumsUploaded: true,
      shasumsSigUploaded: false,
    });
    expect(Object.keys(sut.version('http://h', version, false))).toEqual(['shasums-download']);
  });
});
