// Fails with an exception before returning anything.
export default function () {
  throw new Error('skill catalog not loaded');
}
