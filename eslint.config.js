// ESLint's and typescript-eslint's recommended rules, with the choices CONTRIBUTING.md explains.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["node_modules/", "dist/", "build/", "cdk.out/", ".wrangler/", "coverage/", "test/e2e/user-project/dist/"],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: "module" },
    rules: {
      // TypeScript checks names (no-undef) itself, and unused code with its own flags.
      "no-undef": "off",
      // Destructuring a field away to drop it is how converters are written.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      // A variable a callback reads before it is first assigned (a timer's handle) stays `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests build hostile input: untyped values, __proto__ keys, holes.
    files: ["test/**", "bench/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-expressions": "off",
      "no-sparse-arrays": "off",
    },
  },
);
