import { describe, expect, it } from '@jest/globals';
import { addressRange, judgeTargetAddress } from './target-policy.ts';

describe('webhook target addresses', () => {
  it('allow public unicast addresses', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])
      expect(judgeTargetAddress(address, false)).toEqual({ allowed: true });
  });

  it('refuse loopback, private, CGNAT, ULA, link-local, metadata, unspecified, multicast and the like', () => {
    const refused: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['::1', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['fc00::1', 'uniqueLocal'],
      ['fd12:3456::1', 'uniqueLocal'],
      ['169.254.10.10', 'linkLocal'],
      ['fe80::1', 'linkLocal'],
      ['169.254.169.254', 'metadata'],
      ['fd00:ec2::254', 'metadata'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['192.0.2.1', 'reserved'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['64:ff9b::a00:1', 'rfc6052'],
      ['2002:a00:1::', '6to4'],
      ['not-an-ip', 'invalid'],
    ];
    for (const [address, range] of refused) {
      expect([address, judgeTargetAddress(address, false)]).toEqual([address, { allowed: false, range }]);
    }
  });

  it('with private targets allowed, let loopback/private through but never metadata or link-local', () => {
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', '100.64.1.1', 'fd12::1'])
      expect(judgeTargetAddress(address, true).allowed).toBe(true);
    for (const address of ['169.254.169.254', 'fd00:ec2::254', '169.254.1.1', '0.0.0.0', '224.0.0.1']) {
      expect(judgeTargetAddress(address, true).allowed).toBe(false);
    }
  });

  it('judge IPv4-mapped IPv6 addresses as their IPv4 address', () => {
    expect(addressRange('::ffff:169.254.169.254')).toBe('metadata');
    expect(addressRange('::ffff:8.8.8.8')).toBe('unicast');
  });

  it('refuse IPv6 outside the global unicast space: IPv4-compatible ::a.b.c.d (loopback written another way) and unassigned space', () => {
    // Found by the security pass (docs/security.md): ipaddr.js calls these "unicast".
    expect(judgeTargetAddress('::7f00:1', false)).toEqual({ allowed: false, range: 'ipv4Compatible' });
    expect(judgeTargetAddress('::a9fe:a9fe', false)).toEqual({ allowed: false, range: 'ipv4Compatible' });
    expect(judgeTargetAddress('::808:808', true)).toEqual({ allowed: false, range: 'ipv4Compatible' });
    expect(judgeTargetAddress('4000::1', false)).toEqual({ allowed: false, range: 'unassigned' });
    expect(judgeTargetAddress('1::1', false)).toEqual({ allowed: false, range: 'unassigned' });
    expect(judgeTargetAddress('2a00:1450:4001:80b::200e', false)).toEqual({ allowed: true });
  });
});
