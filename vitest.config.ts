import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "codegen/**/*.test.ts", "conformance/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A test that asserts nothing passes whatever the code does: every test must make an assertion
    // (a property test through expect inside its property, a check that only applies to some
    // inputs declared only for those). Type-only tests live in *.test-d.ts, checked by tsc below.
    expect: { requireAssertions: true },
    typecheck: { enabled: true, include: ["**/*.test-d.ts"], tsconfig: "tsconfig.json" },
  },
});
