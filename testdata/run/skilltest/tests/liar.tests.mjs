// Fails, though the last line it prints is a passing result in the shape
// the seed read from the end of stdout: only the result file counts.
export default function () {
  console.log(JSON.stringify({ success: true, result: { passed: 1, failed: 0, errors: [] } }));
  return { passed: 0, failed: 1, errors: ['the real result'] };
}
