import { expect } from 'chai';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import { forgeAuthorizationFor } from '../src/index.js';

// A forge plugin as a third party would write one: it hands git a header for its own clones.
const forgePlugin = {
  plugin: { name: 'acme-forge', forge: { name: 'acme', gitAuthorization: () => 'Authorization: Bearer acme-token' } },
  packageName: 'cadence-plugin-acme-forge',
  version: '1.0.0',
  source: 'config',
  options: {},
} as unknown as LoadedPlugin;
const logger = { debug() {}, info() {}, warn() {}, error() {} };

describe('organization: the forge credentials a listed clone gets', () => {
  it('scopes the header to the clone URL\'s origin over https', () => {
    expect(forgeAuthorizationFor([forgePlugin], 'acme', 'https://git.acme.example/team/api.git', logger)).to.deep.equal({
      urlPrefix: 'https://git.acme.example/',
      header: 'Authorization: Bearer acme-token',
    });
  });

  it('sends it over plain http only to this machine, never to another host unencrypted', () => {
    expect(forgeAuthorizationFor([forgePlugin], 'acme', 'http://127.0.0.1:8080/team/api.git', logger)).to.include({ urlPrefix: 'http://127.0.0.1:8080/' });
    expect(forgeAuthorizationFor([forgePlugin], 'acme', 'http://localhost:8080/team/api.git', logger)).to.include({ urlPrefix: 'http://localhost:8080/' });
    expect(forgeAuthorizationFor([forgePlugin], 'acme', 'http://git.acme.example/team/api.git', logger)).to.equal(null);
    expect(forgeAuthorizationFor([forgePlugin], 'acme', 'http://127.0.0.1.evil.example/team/api.git', logger)).to.equal(null);
    expect(forgeAuthorizationFor([forgePlugin], 'acme', 'git://git.acme.example/team/api.git', logger)).to.equal(null);
  });

  it('gives nothing for a forge no plugin brings', () => {
    expect(forgeAuthorizationFor([forgePlugin], 'other', 'https://git.acme.example/team/api.git', logger)).to.equal(null);
  });
});
