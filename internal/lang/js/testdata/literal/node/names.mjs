// A node --test reporter printing each test's title path (suites and
// parent tests joined by " > "), one a line, in the order they start.
export default async function* names(source) {
  const stack = [];
  for await (const ev of source) {
    if (ev.type === 'test:start') {
      stack.length = ev.data.nesting;
      stack.push(ev.data.name);
    } else if ((ev.type === 'test:pass' || ev.type === 'test:fail') && ev.data.details?.type !== 'suite') {
      yield [...stack.slice(0, ev.data.nesting), ev.data.name].join(' > ') + '\n';
    }
  }
}
