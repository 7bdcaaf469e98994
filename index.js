// n8n loads the nodes and credentials listed in package.json "n8n"; nothing is exported from here.
module.exports = {};
