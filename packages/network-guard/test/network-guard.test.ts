import { expect } from 'chai';
import { CadenceError } from '@cadence-detect/errors';
import {
  isAddressAllowed,
  isPrivateAddress,
  isValidCidr,
  parseCidr,
  resolveAndCheck,
  STRICT_POLICY,
} from '@cadence-detect/network-guard';

describe('network-guard', () => {
  describe('isPrivateAddress', () => {
    const privateOnes = [
      '0.0.0.0',
      '0.1.2.3',
      '10.0.0.1',
      '10.255.255.255',
      '100.64.0.1',
      '100.127.255.254',
      '127.0.0.1',
      '127.9.9.9',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '198.18.0.1',
      '198.19.255.255',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
      '::',
      '::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fe80::1%eth0',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a9fe:a9fe',
      '::ffff:0:127.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:0:10.0.0.1',
      '::ffff:0:169.254.169.254',
      '2002:7f00:0001::1',
      '[::1]',
      'not-an-ip',
      '',
    ];
    for (const ip of privateOnes) {
      it(`refuses ${JSON.stringify(ip)}`, () => expect(isPrivateAddress(ip)).to.equal(true));
    }
    const publicOnes = [
      '1.1.1.1',
      '8.8.8.8',
      '100.63.255.255',
      '100.128.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.169.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '2a00:1450::1',
    ];
    for (const ip of publicOnes) {
      it(`accepts ${ip}`, () => expect(isPrivateAddress(ip)).to.equal(false));
    }
  });

  describe('isAddressAllowed', () => {
    it('lets allowed_networks through while the rest of the range stays refused', () => {
      const policy = { allowPrivateNetworks: false, allowedNetworks: ['127.0.0.2/32'] };
      expect(isAddressAllowed('127.0.0.2', policy)).to.equal(true);
      expect(isAddressAllowed('::ffff:127.0.0.2', policy)).to.equal(true);
      expect(isAddressAllowed('127.0.0.1', policy)).to.equal(false);
    });
    it('allow_private_networks permits every private range', () => {
      expect(isAddressAllowed('10.1.2.3', { allowPrivateNetworks: true, allowedNetworks: [] })).to.equal(true);
    });
    it('always allows public addresses', () => {
      expect(isAddressAllowed('8.8.8.8', STRICT_POLICY)).to.equal(true);
    });
  });

  describe('CIDR parsing', () => {
    it('accepts IPv4 and IPv6 ranges and bare addresses', () => {
      expect(parseCidr('10.1.2.3/32').prefix).to.equal(32);
      expect(parseCidr('fe80::/10').prefix).to.equal(10);
      expect(parseCidr('127.0.0.2').prefix).to.equal(32);
    });
    for (const bad of ['10.0.0.0/33', '10.0.0/8', 'fe80::/129', 'abc', '1.2.3.4/8/9', '1.2.3.4/-1', '']) {
      it(`rejects ${JSON.stringify(bad)}`, () => expect(isValidCidr(bad)).to.equal(false));
    }
  });

  describe('resolveAndCheck', () => {
    it('refuses localhost after resolving it', async () => {
      const error = await resolveAndCheck('localhost', STRICT_POLICY).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(CadenceError);
      expect((error as CadenceError).code).to.equal('ERR_PRIVATE_ADDRESS');
    });
    it('refuses an IPv4-mapped loopback literal in brackets', async () => {
      const error = await resolveAndCheck('[::ffff:127.0.0.1]', STRICT_POLICY).catch((e: unknown) => e);
      expect((error as CadenceError).code).to.equal('ERR_PRIVATE_ADDRESS');
    });
    it('returns the checked address for an allowed literal', async () => {
      const checked = await resolveAndCheck('127.0.0.2', {
        allowPrivateNetworks: false,
        allowedNetworks: ['127.0.0.2/32'],
      });
      expect(checked).to.deep.equal({ host: '127.0.0.2', address: '127.0.0.2', family: 4 });
    });
    it('checks nothing with a null policy (the CLI)', async () => {
      const checked = await resolveAndCheck('localhost', null);
      expect(isPrivateAddress(checked.address)).to.equal(true);
    });
    it('reports a name that does not resolve', async () => {
      const error = await resolveAndCheck('no-such-host.invalid', STRICT_POLICY).catch((e: unknown) => e);
      expect((error as CadenceError).code).to.equal('ERR_DNS_LOOKUP_FAILED');
    });
    it('rejects at once when the signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      const error = await resolveAndCheck('example.invalid', STRICT_POLICY, controller.signal).catch((e: unknown) => e);
      expect((error as CadenceError).code).to.equal('ERR_CANCELLED');
    });
  });
});
