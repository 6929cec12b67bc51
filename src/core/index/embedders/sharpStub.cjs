// Stands in for `sharp` in the bundled embedding worker: transformers.js loads it for image inputs,
// which Hearth never embeds.
module.exports = function sharp() {
  throw new Error('Image processing is not available in Hearth (sharp is not bundled).');
};
