import { describe, expect, it } from "vitest";
import { parseDocuments } from "../../../src/cli/io";
import { countStoredObjects } from "../../../src/cli/doctor/stored-objects";

const crontab = (name: string, apiVersion = "example.com/v1") =>
  `apiVersion: ${apiVersion}\nkind: CronTab\nmetadata:\n  name: ${name}\n`;
const count = (text: string) =>
  Object.fromEntries(countStoredObjects(parseDocuments(text, "objects.yaml"), "objects.yaml"));

describe("stored objects counted per kind (--stored-file)", () => {
  it("reads kubectl get -A -o yaml (a List), a <Kind>List as the API returns it, and several documents", () => {
    const list = `apiVersion: v1\nkind: List\nitems:\n${[crontab("a"), crontab("b", "example.com/v1beta1")]
      .map((item) => `- ${item.replace(/\n(?=.)/g, "\n  ")}`)
      .join("")}`;
    expect(count(list)).toEqual({ "CronTab.example.com": 2 });
    expect(
      count(
        JSON.stringify({
          apiVersion: "example.com/v1",
          kind: "CronTabList",
          items: [{ apiVersion: "example.com/v1", kind: "CronTab" }],
        }),
      ),
    ).toEqual({ "CronTab.example.com": 1 });
    expect(
      count([crontab("a"), crontab("b"), crontab("c").replace("example.com", "stable.example.com")].join("---\n")),
    ).toEqual({
      "CronTab.example.com": 2,
      "CronTab.stable.example.com": 1,
    });
  });

  it("an empty List is no objects", () => {
    expect(count("apiVersion: v1\nkind: List\nitems: []\n")).toEqual({});
  });

  it("anything else is a usage error naming where it is", () => {
    expect(() => count("just text\n")).toThrow(
      "objects.yaml: document 1 is not a custom resource with apiVersion group/version and kind (give the output of kubectl get KIND -A -o yaml)",
    );
    expect(() => count(`${crontab("a")}---\n[1, 2]\n`)).toThrow(/^objects\.yaml: document 2 is not a custom resource/);
    expect(() => count('{"apiVersion": "v1", "kind": "List", "items": [{"kind": "CronTab"}]}')).toThrow(
      /^objects\.yaml: document 1, item 0 is not a custom resource/,
    );
    expect(() => count("apiVersion: v1\nkind: List\n")).toThrow(
      "objects.yaml: document 1 is a List without items (give the output of kubectl get KIND -A -o yaml)",
    );
  });
});
