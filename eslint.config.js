// ESLint for the pages' JavaScript (`make lint`): ES modules served as they are, no build step,
// run in the browser. Django's JavaScript catalog (/jsi18n/) defines gettext, ngettext and
// interpolate on window before the modules run.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "staticfiles/", ".venv/"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js", "tests/static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: {
        ...globals.browser,
        gettext: "readonly",
        ngettext: "readonly",
        interpolate: "readonly",
      },
    },
    // Beyond the recommended set: loose equality, a binding never reassigned left as `let`, and
    // code that can never run or is never used.
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "prefer-const": "error",
      "no-var": "error",
      "no-unused-private-class-members": "error",
      "no-unreachable-loop": "error",
      "no-useless-return": "error",
    },
  },
];
