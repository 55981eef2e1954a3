#!/usr/bin/env bash
# lint.sh - cppcheck over the tree (warnings, performance, portability): clean, or the finding.
. "$(dirname "$0")/../lib.sh"

if ! command -v cppcheck >/dev/null; then
	skip "cppcheck is not installed"
	finish
fi
cppcheck -j2 -q --enable=warning,performance,portability --std=c11 --error-exitcode=1 \
	--suppress=missingIncludeSystem -D__GNUC__ -DLOCUS_VERSION='"lint"' -Ibuild/bpf \
	-icollectors/bpf common model collectors analyzers report pipeline cli workloads >"$TMP/cpp.txt" 2>&1
rc=$?
if [ $rc -eq 0 ]; then ok "cppcheck: no findings"; else fail "cppcheck: $(head -n 5 "$TMP/cpp.txt")"; fi
finish
