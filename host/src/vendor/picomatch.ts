// One module once built (scripts/bundle-vendored.mjs bundles it): what this package uses of picomatch.
import picomatch from 'picomatch';

export default picomatch;
