'use strict';

const { join } = require('path');
const fs = require('fs');

describe('Issues', () => {
  const dir = join(__dirname, 'issues');
  fs.readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .forEach((f) => require(join(dir, f)));
});

describe('Extra', () => {
  require(join(__dirname, 'extra', process.env.EXTRA || 'more.js'));
});
