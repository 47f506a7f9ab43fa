// A process that swaps two paths atomically in a loop (Linux renameat2
// through Python's ctypes), for tests racing a folder against a symbolic
// link: another process in the repository may do exactly this.
import { spawn } from 'node:child_process';

const SWAPPER = `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
if libc.renameat2(-100, a, -100, b, 2) != 0:
    sys.stderr.write('renameat2 failed: errno %d\\n' % ctypes.get_errno()); sys.exit(3)
sys.stdout.write('ready\\n'); sys.stdout.flush()
while True:
    libc.renameat2(-100, a, -100, b, 2)
`;

/** Starts swapping `a` and `b`; resolves with the child once the first swap is done. */
export function startSwapper(a, b) {
  const child = spawn('python3', ['-c', SWAPPER, a, b], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the swapper exited (${code}): ${err}`)));
  });
}

/** Stops a swapper and waits until it has exited. */
export function stopSwapper(child) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}
