module.exports = require('./mysql-template.global.js').setup;
