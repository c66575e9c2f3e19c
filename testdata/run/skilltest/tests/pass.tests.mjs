// Passes: three checks, no failure; prints on stdout and stderr.
export default async function () {
  console.log('checking equipment');
  console.error('a warning on stderr');
  return { passed: 3, failed: 0, errors: [] };
}
