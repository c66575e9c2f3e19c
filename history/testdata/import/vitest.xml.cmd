# testdata/run/node/vitest after scripts/setup/node.sh (Vitest 3), its built-in reporter:
npx vitest run --globals --reporter=junit --outputFile=vitest.xml
