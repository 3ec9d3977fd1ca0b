import { expect } from 'chai';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import { forgeGitHost, normalizeGitHost } from '@cadence-detect/plugin-sdk';
import { forgeAuthorizationFor } from '../src/index.js';

/** A forge plugin as a third party would write one: it hands git a header for its own clones, on its own hosts. */
function forgePlugin(name: string, hosts?: string[]): LoadedPlugin {
  return {
    plugin: {
      name: `${name}-forge`,
      forge: {
        name,
        gitAuthorization: () => `Authorization: Bearer ${name}-token`,
        ...(hosts ? { gitHosts: () => hosts } : {}),
      },
    },
    packageName: `cadence-plugin-${name}-forge`,
    version: '1.0.0',
    source: 'config',
    options: {},
  } as unknown as LoadedPlugin;
}
const acme = forgePlugin('acme', ['git.acme.example', '127.0.0.1:8080', 'localhost:8080', 'git.acme.example:8443']);
const logger = { debug() {}, info() {}, warn() {}, error() {} };

describe('organization: the forge credentials a listed clone gets', () => {
  it("scopes the header to the clone URL's origin over https", () => {
    expect(forgeAuthorizationFor([acme], 'acme', 'https://git.acme.example/team/api.git', logger)).to.deep.equal({
      urlPrefix: 'https://git.acme.example/',
      header: 'Authorization: Bearer acme-token',
    });
  });

  it('sends it over plain http only to this machine, never to another host unencrypted', () => {
    expect(forgeAuthorizationFor([acme], 'acme', 'http://127.0.0.1:8080/team/api.git', logger)).to.include({
      urlPrefix: 'http://127.0.0.1:8080/',
    });
    expect(forgeAuthorizationFor([acme], 'acme', 'http://localhost:8080/team/api.git', logger)).to.include({
      urlPrefix: 'http://localhost:8080/',
    });
    expect(forgeAuthorizationFor([acme], 'acme', 'http://git.acme.example/team/api.git', logger)).to.equal(null);
    expect(
      forgeAuthorizationFor([acme], 'acme', 'http://127.0.0.1:9090/team/api.git', logger),
      'another port is another host',
    ).to.equal(null);
    expect(forgeAuthorizationFor([acme], 'acme', 'http://127.0.0.1.evil.example/team/api.git', logger)).to.equal(null);
    expect(forgeAuthorizationFor([acme], 'acme', 'git://git.acme.example/team/api.git', logger)).to.equal(null);
  });

  it('sends it only to the forge\u2019s own git hosts, compared normalised, whatever host a listing names', () => {
    expect(forgeAuthorizationFor([acme], 'acme', 'https://GIT.Acme.Example./team/api.git', logger)).to.include({
      header: 'Authorization: Bearer acme-token',
    });
    expect(forgeAuthorizationFor([acme], 'acme', 'https://git.acme.example:443/team/api.git', logger)).to.include({
      urlPrefix: 'https://git.acme.example/',
    });
    expect(forgeAuthorizationFor([acme], 'acme', 'https://git.acme.example:8443/team/api.git', logger)).to.include({
      urlPrefix: 'https://git.acme.example:8443/',
    });
    for (const elsewhere of [
      'https://evil.example/team/api.git',
      'https://git.acme.example.evil.example/x.git',
      'https://git.acme.example@evil.example/x.git',
      'https://127.0.0.2:8080/x.git',
      'https://xn--gt-acme-example.evil/x.git',
    ]) {
      expect(forgeAuthorizationFor([acme], 'acme', elsewhere, logger), elsewhere).to.equal(null);
    }
    // A forge that names no git hosts has its header sent nowhere.
    expect(
      forgeAuthorizationFor([forgePlugin('hostless')], 'hostless', 'https://git.hostless.example/x.git', logger),
    ).to.equal(null);
  });

  it('the git host that belongs to a forge API address, and host normalisation', () => {
    expect(forgeGitHost('https://api.github.com')).to.equal('github.com');
    expect(forgeGitHost('https://API.GitHub.com/')).to.equal('github.com');
    expect(forgeGitHost('https://ghe.example.com/api/v3')).to.equal('ghe.example.com');
    expect(forgeGitHost('https://gitlab.com/api/v4')).to.equal('gitlab.com');
    expect(forgeGitHost('https://gitlab.example.com:8443/api/v4')).to.equal('gitlab.example.com:8443');
    expect(forgeGitHost('http://127.0.0.1:4000')).to.equal('127.0.0.1:4000');
    expect(forgeGitHost('not a url')).to.equal(null);
    expect(normalizeGitHost('Git.Example.com.:443')).to.equal('git.example.com');
    expect(normalizeGitHost('[::1]:8080')).to.equal('[::1]:8080');
    for (const bad of ['', 'a/b', 'user@host', 'host?x', 'two words'])
      expect(normalizeGitHost(bad), bad).to.equal(null);
  });

  it('gives nothing for a forge no plugin brings', () => {
    expect(forgeAuthorizationFor([acme], 'other', 'https://git.acme.example/team/api.git', logger)).to.equal(null);
  });
});
