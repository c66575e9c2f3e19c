// Added to a copy of jest-mock-extended by internal/fidelity: a test the
// static listing holds, one declared through an alias, and .each rows
// built by a function.
const t = process.env.FIDELITY_NEVER ? test.skip : test;

test('a listed test fails', () => {
    expect(1).toBe(2);
});

test('a listed test passes', () => {});

t('declared through an alias fails', () => {
    expect(1).toBe(2);
});

const rows = () => [1, 2, 3].map((n) => [n, n === 2 ? 5 : n * n]);

describe('fidelity rows', () => {
    test.each(rows())('squares %i', (n, square) => {
        expect(n * n).toBe(square);
    });
});
