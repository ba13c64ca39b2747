// Unit mode's shared module graph (vitest.config.ts): full zod installs its English messages
// globally when first imported, so it is imported before any test file, the same in every order.
import "zod";
