// Fails through its counts: runTests reports one failed check.
export async function runTests() {
  const errors = [];
  let passed = 0, failed = 0;
  if (1 + 1 === 2) passed++; else { failed++; errors.push('arithmetic is broken'); }
  if ('a'.repeat(2) === 'aa!') passed++; else { failed++; errors.push('expected "aa!", got "aa"'); }
  return { passed, failed, errors };
}
