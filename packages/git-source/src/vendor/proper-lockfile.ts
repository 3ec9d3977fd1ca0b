// One module once built (scripts/bundle-vendored.mjs bundles it): what this package uses of proper-lockfile.
import lockfile from 'proper-lockfile';

export default lockfile;
