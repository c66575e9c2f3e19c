'use strict';

it('issue 1', () => {});
it('regression', () => {});
