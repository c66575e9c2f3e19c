// Not a spec: no .spec in its name.
module.exports = {};
