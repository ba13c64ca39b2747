import { describe, expect, it } from "vitest";
import { parse } from "../../src/cli/arguments";
import { COMMANDS } from "../../src/cli/commands";
import { HELP } from "../../src/cli/help";
import { main } from "../../src/cli/main";

describe("the command table", () => {
  it.each(Object.keys(COMMANDS))("%s has its usage text, its options and a line in crdshift --help", (command) => {
    expect(HELP[command]).toMatch(new RegExp(`^Usage: crdshift ${command} `));
    expect(parse(command, ["--help"]).values.help).toBe(true);
    expect(HELP.main).toMatch(new RegExp(`\\n {2}${command} +\\S`));
  });

  it("lists no command in crdshift --help that it does not run", () => {
    const listed = [...HELP.main!.matchAll(/\n {2}([a-z]+) {2,}/g)].map((match) => match[1]);
    expect(listed.sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  it("refuses a name that is not a command, a property of every object included", async () => {
    for (const name of ["main", "constructor", "toString", "nope"]) {
      let stderr = "";
      const code = await main([name], { out: () => {}, err: (text) => (stderr += text), stdin: () => "" });
      expect(code).toBe(2);
      expect(stderr).toBe(`crdshift: unknown command ${JSON.stringify(name)}; see crdshift --help\n`);
    }
  });

  it("answers a CRD it cannot read with exit 2 and the file's name, whichever command reads it", async () => {
    const crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: { group: a.example.com }\n";
    for (const argv of [
      ["crd", "-f", "-", "--url", "https://webhook.example.com/convert"],
      ["doctor", "-f", "-", "--offline"],
    ]) {
      let stderr = "";
      const code = await main(argv, { out: () => {}, err: (text) => (stderr += text), stdin: () => crd });
      expect(code).toBe(2);
      expect(stderr).toMatch(
        /^crdshift: stdin: document 1 \(.*\): spec\.group, spec\.names\.kind and spec\.names\.plural are required\n$/,
      );
    }
  });
});
