// `npm start` and `npm test` run this first: Electron 45 and its downloader need the Node.js that
// package.json's `engines` names, and on an older Node they fail far from the cause. Plain JavaScript,
// so that the Node it rejects can still run it.
import { readFileSync } from 'node:fs';

const wanted = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
const minimum = /^>=\s*(\d+)\.(\d+)$/.exec(wanted);
if (!minimum) throw new Error(`build/check-node.js reads only ">=MAJOR.MINOR" engines, not "${wanted}"`);

const [major, minor] = process.versions.node.split('.').map(Number);
const [needMajor, needMinor] = [Number(minimum[1]), Number(minimum[2])];
if (major < needMajor || (major === needMajor && minor < needMinor)) {
  console.error(
    `TableDesk needs Node.js ${needMajor}.${needMinor} or newer, and this is Node ${process.version}: see Setup in README.md.`,
  );
  process.exit(1);
}
