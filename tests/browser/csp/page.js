// Loaded by csp.test.mjs under a Content-Security-Policy with no inline script:
// init() the package from pkg/web and render one block, or report why not.
import { init, parseEdits, renderEditBlock } from '../../../pkg/web/index.js';

const REPLY = 'src/a.js\n<<<<<<< SEARCH\nconst a = 1;\n=======\nconst a = 2;\n>>>>>>> REPLACE\n';
try {
  await init();
  document.getElementById('out').innerHTML = parseEdits(REPLY).map((b) => renderEditBlock(b)).join('');
  document.body.dataset.outcome = 'loaded';
} catch (error) {
  document.body.dataset.outcome = `failed: ${error.message}`;
}
