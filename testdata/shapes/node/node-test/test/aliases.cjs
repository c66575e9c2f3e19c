// node:test, CommonJS with renamed imports.
const { test: check, describe: group } = require('node:test');

group('group', () => {
  check('check', () => {});
});
