#!/bin/sh
# Ships a converter change to a crdshift Worker with Workers versions and gradual deployments:
# first a version that shadows the candidate, then the candidate live for a share of requests,
# then for all (docs/platforms.md: Shipping a converter change on Cloudflare). Needs wrangler 4
# and `wrangler login`; DRY_RUN=1 builds uploads offline and prints deployments instead.
#
#   scripts/cloudflare-rollout.sh upload ENTRY [SAMPLE]   upload ENTRY as a version (not deployed);
#                                                         SAMPLE sets CRDSHIFT_SHADOW_SAMPLE on it
#   scripts/cloudflare-rollout.sh split NEW OLD PERCENT   NEW serves PERCENT% of requests, OLD the rest
#   scripts/cloudflare-rollout.sh full VERSION            VERSION serves every request
#
# WRANGLER (default: npx wrangler) and WRANGLER_CONFIG (a wrangler.toml; default wrangler's own
# lookup) say which wrangler and which Worker.
set -eu

wrangler() {
  if [ -n "${WRANGLER_CONFIG:-}" ]; then set -- "$@" --config "$WRANGLER_CONFIG"; fi
  ${WRANGLER:-npx wrangler} "$@"
}

usage() {
  sed -n '6,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

whole_percent() {
  case "$1" in
    '' | *[!0-9]*) echo "PERCENT must be a whole number from 0 to 100, got '$1'" >&2; exit 2 ;;
  esac
  [ "$1" -le 100 ] || { echo "PERCENT must be a whole number from 0 to 100, got '$1'" >&2; exit 2; }
}

deploy() {
  if [ "${DRY_RUN:-}" = 1 ]; then
    echo "would run: wrangler versions deploy $*"
  else
    wrangler versions deploy "$@"
  fi
}

[ $# -ge 1 ] || usage
command=$1
shift
case "$command" in
  upload)
    [ $# -ge 1 ] && [ $# -le 2 ] || usage
    entry=$1
    set -- versions upload "$entry" --tag "$(basename "$entry" .ts)" --message "crdshift: $(basename "$entry")"
    if [ -n "${2:-}" ]; then set -- "$@" --var "CRDSHIFT_SHADOW_SAMPLE:$2"; fi
    if [ "${DRY_RUN:-}" = 1 ]; then set -- "$@" --dry-run --outdir "${OUTDIR:-dist/worker-version}"; fi
    # wrangler prints "Worker Version ID: <id>": the id `split` and `full` take.
    wrangler "$@"
    ;;
  split)
    [ $# -eq 3 ] || usage
    whole_percent "$3"
    deploy "$1@$3%" "$2@$((100 - $3))%" --yes --message "crdshift: $1 at $3%"
    ;;
  full)
    [ $# -eq 1 ] || usage
    deploy "$1@100%" --yes --message "crdshift: $1 at 100%"
    ;;
  *) usage ;;
esac
