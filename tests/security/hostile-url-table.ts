import { DECOY } from './url-probe-fixtures.js';

/**
 * Spellings that aim git at a loopback listener while a parser may read a public host, or that name
 * loopback in a form a check might not recognise. The first three are the reported findings (curl
 * reading '\' as a path separator; git percent-decoding the user part of git:// and ssh:// URLs).
 */
export function hostileUrls(ports: { git: number; http: number; ssh: number }): string[] {
  const { git, http, ssh } = ports;
  return [
    `http://${DECOY}\\@127.0.0.1:${http}/acme/human.git`,
    `git://127.0.0.1:${git}%2F@${DECOY}/acme/human.git`,
    `ssh://127.0.0.1:${ssh}%2F@${DECOY}/x.git`,
    `https://${DECOY}\\@127.0.0.1:${http}/acme/human.git`,
    `git://127.0.0.1:${git}%2f@${DECOY}/acme/human.git`,
    `ssh://git@127.0.0.1:${ssh}%2F@${DECOY}/x.git`,
    `http://${DECOY}%5C@127.0.0.1:${http}/acme/human.git`,
    `http://${DECOY}\\\\@127.0.0.1:${http}/acme/human.git`,
    `http://${DECOY}@127.0.0.1:${http}@${DECOY}/acme/human.git`,
    `http://${DECOY}:80\\@127.0.0.1:${http}/acme/human.git`,
    `http://${DECOY}#@127.0.0.1:${http}/acme/human.git`,
    `http://${DECOY}?@127.0.0.1:${http}/acme/human.git`,
    `git://127.0.0.1:${git}%252F@${DECOY}/acme/human.git`,
    `git://${DECOY}@127.0.0.1:${git}/acme/human.git`,
    `git://127.0.0.1:${git}%40${DECOY}/acme/human.git`,
    `ssh://${DECOY}\\@127.0.0.1:${ssh}/x.git`,
    `ssh://127.0.0.1:${ssh}%5C@${DECOY}/x.git`,
    `git@127.0.0.1:x.git`,
    `git@[::1]:x.git`,
    `127.0.0.1%2F@${DECOY}:x.git`,
    `http://127.0.0.1:${http}/acme/human.git`,
    `http://localhost:${http}/acme/human.git`,
    `http://[::1]:${http}/acme/human.git`,
    `http://[::ffff:127.0.0.1]:${http}/acme/human.git`,
    `http://[::ffff:7f00:1]:${http}/acme/human.git`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${http}/acme/human.git`,
    `http://2130706433:${http}/acme/human.git`,
    `http://0x7f000001:${http}/acme/human.git`,
    `http://0177.0.0.1:${http}/acme/human.git`,
    `http://127.1:${http}/acme/human.git`,
    `http://0.0.0.0:${http}/acme/human.git`,
    `http://127.0.0.1.:${http}/acme/human.git`,
    `git://[::1]:${git}/acme/human.git`,
    `git://[::ffff:127.0.0.1]:${git}/acme/human.git`,
    `ssh://git@[::1]:${ssh}/x.git`,
    `ssh://git@localhost:${ssh}/x.git`,
    `HTTP://127.0.0.1:${http}/acme/human.git`,
    `http://${DECOY}%2F@127.0.0.1:${http}/acme/human.git`,
    `http://127.0.0.1%2F@${DECOY}/acme/human.git`,
    `http:\\\\127.0.0.1:${http}\\acme\\human.git`,
    `http:/127.0.0.1:${http}/acme/human.git`,
  ];
}
