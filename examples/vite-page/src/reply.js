// A reply with two edits to a tiny project.
export const PROJECT = {
  'src/greet.js': "export function greet(name) {\n  return 'Hello ' + name;\n}\n",
  'src/config.js': 'export const retries = 1;\n',
};

export const REPLY = `Two small changes.

src/greet.js
<<<<<<< SEARCH
  return 'Hello ' + name;
=======
  return \`Hello, \${name}!\`;
>>>>>>> REPLACE

src/config.js
<<<<<<< SEARCH
export const retries = 1;
=======
export const retries = 3;
>>>>>>> REPLACE
`;
