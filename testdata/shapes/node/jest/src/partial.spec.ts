// .each rows named one by one: the row printing a function is the table's
// one dynamic record; Object.freeze returns its (printable) object.
test.each([[false], [() => {}], [Object.freeze({})], [1]])('given %s', () => {});
test.each([false, {}, () => {}, undefined])('bare %s', () => {});
