// Loaded by the project's test command (package.json's scripts.test).
globalThis.fixtureRequired = 'node --require';
