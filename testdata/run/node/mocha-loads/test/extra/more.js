'use strict';

it('known only at run time', () => {});
