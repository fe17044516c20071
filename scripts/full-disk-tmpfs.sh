#!/usr/bin/env bash
# A real full disk (root only: it mounts a small tmpfs), for what the test seam cannot reach —
# DuckDB's own writes (Parquet segments, the warehouse): the bundled sample is run into a store on
# a 2 MB tmpfs, which fills up; every failure must read "no space left on tmpfs (mounted at …)
# while writing FILE" with no stack trace. Then a no-op run on the filled disk, and after space is
# freed (the tmpfs grown) the run must complete and the run log stay readable.
#   sudo scripts/full-disk-tmpfs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mnt=$(mktemp -d /tmp/cdp-full-disk-XXXXXX)
mount -t tmpfs -o size=2m tmpfs "$mnt"
trap 'umount "$mnt"; rmdir "$mnt"' EXIT
export CDP_STORE="$mnt/store" CDP_NO_FAST_PATH=1
fail() { echo "FAILED: $*"; exit 1; }

out=$(node bin/cdp.mjs run 2>&1) && fail "the run on a 2 MB disk succeeded"
grep -q "no space left on tmpfs (mounted at $mnt) while writing $mnt/store/" <<<"$out" || fail "no disk-full message: $out"
grep -qE '^\s+at |its rows do not fit' <<<"$out" && fail "a stack trace or a wrong reason: $out"
echo "full: $(grep -m1 'no space left' <<<"$out")"

mount -o remount,size=300m "$mnt"
node bin/cdp.mjs run >/dev/null 2>&1 || fail "the run after space was freed did not complete"
# Fill the disk to the last byte, then a run that has nothing to do.
dd if=/dev/zero of="$mnt/filler" bs=1M status=none 2>/dev/null || true
unset CDP_NO_FAST_PATH
out=$(node bin/cdp.mjs run 2>&1) && fail "the no-op run on a full disk succeeded: $out"
grep -q "no space left on tmpfs (mounted at $mnt) while writing $mnt/store/" <<<"$out" || fail "no disk-full message: $out"
grep -qE '^\s+at ' <<<"$out" && fail "a stack trace: $out"
echo "no-op on a full disk: $(grep -m1 'no space left' <<<"$out")"
rm "$mnt/filler"
node bin/cdp.mjs run >/dev/null 2>&1 || fail "the no-op after space was freed failed"
n=$(node bin/cdp.mjs sql 'select count(*) as n from runs' --json | tr -dc '0-9')
echo "ok: the run log holds $n records and reads"
