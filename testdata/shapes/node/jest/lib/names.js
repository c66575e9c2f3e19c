module.exports = { title: 'computed title' };
