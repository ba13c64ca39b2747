import { DIFF_HELP } from "./diff";
import { DOCTOR_HELP } from "./doctor";
import { MIGRATE_HELP } from "./migrate";

/** The usage text of crdshift (`main`) and of each command: what `--help` prints. */
export const HELP: Record<string, string> = {
  main: `crdshift: CRD conversion webhooks, tools for their authors and operators

Usage: crdshift <command> [options]

Commands:
  init      start a webhook project from your CRDs: schemas generated, converters to fill in
  generate  write a kind's schemas again from its CRD, leaving the converters alone
  convert   convert objects in a YAML or JSON file to another version
  crd       write the conversion webhook stanza into a CRD manifest
  check     prove the registry: against its CRDs, and every version pair round-trips
  golden    record golden conversions for review (golden record)
  doctor    check a CRD and its live webhook as the apiserver would, before the cluster does
  diff      compare the registry's conversions of real objects with the deployed webhook's
  migrate   rewrite a CRD's stored objects in its storage version, then prune storedVersions
  versions  sort version names by Kubernetes' version priority

The registry is the module --registry FILE names (exporting \`registry\`, or as its default
export), else crdshift.config.ts (or .mts, .js, .mjs) in the current directory.
Every command takes --help. Exit codes: 0 done, 1 a conversion or check failed, 2 bad usage
or input, or no registry found.
`,
  convert: `Usage: crdshift convert -f FILE|- --to GROUP/VERSION [-o yaml|json]

Converts every object of a (multi-document) YAML or JSON file, a List, or a ConversionReview
to GROUP/VERSION with the registry's converters, offline. Objects of kinds the registry does not
serve are passed through unchanged and reported on stderr. If any object fails, nothing is
written and the exit code is 1.

  -f, --file FILE      input file, or - for standard input
      --to GROUP/VERSION
  -o, --output FORMAT  yaml (default) or json
`,
  crd: `Usage: crdshift crd -f CRD.yaml --url https://HOST/PATH

Writes the CRD back on stdout with spec.conversion set to the webhook (strategy Webhook,
conversionReviewVersions [v1, v1beta1], clientConfig.url), in the layout of its apiVersion
(apiextensions.k8s.io/v1 or v1beta1), keeping comments and formatting. Refuses a CRD with a
single version, and one whose versions differ from the registry's.

  -f, --file FILE   the CRD manifest, or - for standard input
      --url URL     https URL of the webhook, with the path token: https://host/convert/<token>
`,
  check: `Usage: crdshift check [--typecheck] [--crd FILE...] [--runs N] [--seed N]

With --typecheck, before anything else, runs the project's tsc --noEmit -p tsconfig.json and fails
on a type error before any converter runs; without it, says that nothing was type-checked.

First holds the registry to each CRD (--crd, else the crds crdshift.config.ts exports), with
objects generated from the CRD's own openAPIV3Schema: the kind must have exactly the CRD's
versions; each version's schema must accept every object the CRD accepts (whole, and partial as
server-side apply sends them); every object must survive A -> B -> A with the apiserver's
pruning after each step; and every result must be valid in its target version (enums, formats,
patterns, bounds, list keys, CEL rules; those it cannot evaluate are listed). A failure names
the versions, the field, the value and a shrunk object. Without a CRD it says what it cannot see.

Then, for every kind and every ordered pair of versions A, B, converts objects generated from A's zod
schema (whole and partial, with labels, annotations and unknown fields) to B and back, until
--runs objects per pair have come back, refusals aside, and prints each pair's round trips,
objects generated and refusals by reason. It goes on after a failure: every distinct finding is
printed once, shrunk, with a line that counts them.

Both fail on a throw of a converter that names no reason its pair declares in defineKind's
refusals (context.refuse), when refusals leave too few round trips, and on a converter that
changes its input or answers differently when called again; what the kind declares
(defineKind's emptyIsAbsent and gaps, mapping()'s enum aliases declared lost) is accepted and
counted.

      --typecheck tsc --noEmit -p tsconfig.json first, with the project's TypeScript
      --crd FILE a CustomResourceDefinition the registry serves (repeat for more)
      --runs N   round trips per pair (default 200; 100 per version and pair against a CRD)
      --seed N   replay a run

Last, when the folder golden/ exists, converts each golden case (golden/<case>/<version>.yaml:
one object in several versions; or one way, <version>.input.yaml to <version>.expected.yaml) to
every other version it holds and fails naming the case, the pair and each field that differs
(crdshift golden record writes them).
`,
  golden: `Usage: crdshift golden record [--dir DIR] [--from VERSION] [--force]

For each case in golden/ (a folder of files named for their version, like v1beta1.yaml, one
object each), converts its source file (its <version>.input.yaml, else its only file, else
--from VERSION) to every other version of its kind and writes the result beside it for review
(<version>.expected.yaml from an input). A file that exists and differs is left as it is, with
its differences printed, unless --force (exit 1 while any is left).

      --dir DIR        the golden folder (default golden)
      --from VERSION   the file to convert from, in cases with several and no .input file
      --force          replace files that differ (the differences are printed)
`,
  doctor: DOCTOR_HELP,
  diff: DIFF_HELP,
  migrate: MIGRATE_HELP,
  init: `Usage: crdshift init [DIR] --crd FILE [--crd FILE...] [--url URL] [--force] [--crdshift SPEC]

Writes a new conversion webhook project in DIR (default: the current folder), which must be empty
unless --force: per CRD, src/kinds/<plural>.<group>.ts with the converters between neighbouring
versions (copies; a TODO names every field two versions do not share) and, beside it,
<plural>.<group>.schemas.ts with a zod schema per version generated from its openAPIV3Schema;
the registry, a test of every kind against its CRD, entries for Node, Workers and Lambda, the
Workers and CDK configuration, package.json scripts, and the CRDs in crds/.

      --crd FILE       a CustomResourceDefinition (YAML or JSON; repeat for more)
      --url URL        the webhook's https URL with its token: the CRDs get the conversion stanza
      --force          write into a folder that is not empty (files crdshift writes are replaced)
      --crdshift SPEC  the crdshift dependency (default: ^ this version; e.g. file:crdshift.tgz)
`,
  generate: `Usage: crdshift generate --crd FILE [--crd FILE...] [--dir DIR]

Writes <plural>.<group>.schemas.ts again from each CRD's versions, in DIR (default src/kinds),
and never touches the converters in <plural>.<group>.ts beside it (written only for a CRD that
has none yet). Versions the CRD gained or lost are reported.

      --crd FILE   a CustomResourceDefinition (repeat for more)
      --dir DIR    where the kind files are (default src/kinds)
`,
  versions: `Usage: crdshift versions NAME...

Prints the version names in Kubernetes' priority order (GA, then beta, then alpha, larger
numbers first; other names last, alphabetically), as kubectl picks a default version.
`,
};
