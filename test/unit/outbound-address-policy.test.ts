/**
 * The outbound address policy over a table of addresses: everything that is not public unicast is refused,
 * whatever its spelling (URL hosts go through the WHATWG parser first, exactly as the guarded fetch does).
 */
import { expect } from 'chai';
import { addressRefusal, OutboundAllowList } from '../../src/kernel/plugin-sdk/outbound-address-policy.js';

/** The host of a URL as the guarded fetch sees it: parsed, brackets removed. */
function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[|\]$/g, '');
}

describe('outbound address policy', () => {
  const refused: [string, string][] = [
    ['http://127.0.0.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://017700000001/', 'loopback'],
    ['http://[::ffff:7f00:1]/', 'loopback'],
    ['http://[::ffff:a9fe:a9fe]/', 'linkLocal'],
    ['http://[64:ff9b::a00:1]/', 'rfc6052'],
    ['http://[2002:7f00:1::]/', '6to4'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'teredo'],
    ['http://[fe80::1]/', 'linkLocal'],
    ['http://[fd00::1]/', 'uniqueLocal'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://[::]/', 'unspecified'],
    ['http://[::1]/', 'loopback'],
    ['http://[::7f00:1]/', 'outside global unicast 2000::/3'],
    ['http://[2001:db8::1]/', 'reserved'],
    ['http://100.64.0.1/', 'carrierGradeNat'],
    ['http://169.254.169.254/', 'linkLocal'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://0.1.2.3/', 'unspecified'],
    ['http://10.0.0.5/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://198.18.0.1/', 'reserved'],
    ['http://192.0.2.1/', 'reserved'],
  ];
  for (const [url, range] of refused) {
    it(`refuses ${url} (${range})`, () => {
      expect(addressRefusal(hostOf(url))).to.equal(range);
    });
  }

  for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '2a00:1450:4001:82a::200e']) {
    it(`lets the public address ${address} through`, () => {
      expect(addressRefusal(address)).to.equal(undefined);
    });
  }

  it('refuses what is not an address at all', () => {
    expect(addressRefusal('example.com')).to.equal('not an IP address');
  });

  describe('allow-list', () => {
    const allowList = new OutboundAllowList(['LocalHost', '127.0.0.1', '10.20.0.0/16', '[fd00::1]']);

    it('matches host names case-insensitively, addresses exactly, and CIDR blocks', () => {
      expect(allowList.allowsHost('localhost')).to.equal(true);
      expect(allowList.allowsHost('127.0.0.1')).to.equal(true);
      expect(allowList.allowsHost('[fd00::1]')).to.equal(true);
      expect(allowList.allowsAddress('10.20.3.4')).to.equal(true);
      expect(allowList.allowsAddress('::ffff:10.20.3.4'), 'IPv4-mapped is judged as its IPv4 address').to.equal(true);
      expect(allowList.allowsAddress('10.21.0.1')).to.equal(false);
      expect(allowList.allowsAddress('127.0.0.2')).to.equal(false);
      expect(allowList.allowsHost('localhost.evil.example')).to.equal(false);
    });

    it('lets nothing through when empty (the default)', () => {
      expect(new OutboundAllowList([]).allowsHost('127.0.0.1')).to.equal(false);
      expect(new OutboundAllowList([]).allowsAddress('127.0.0.1')).to.equal(false);
    });

    it('refuses a mistyped CIDR block instead of taking it for a host name', () => {
      expect(() => new OutboundAllowList(['10.0.0.0/99'])).to.throw('outbound.allow_hosts: 10.0.0.0/99 is neither a host name, an IP address nor a CIDR block');
    });
  });
});
