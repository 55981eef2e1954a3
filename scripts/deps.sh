#!/bin/sh
# Install what locus needs to build and test; idempotent, silent when all is present.
# Usage: scripts/deps.sh [--test] [--check]   (--test: also what `make check` needs;
# --check: install nothing, say in one line what is missing; a plain `make` uses it)
set -eu

want_test=0 check_only=0
for a in "$@"; do
	case $a in
	--test) want_test=1 ;;
	--check) check_only=1 ;;
	esac
done

# Debian packages: header or tool that proves each is present.
pkgs="
libpfm4-dev:/usr/include/perfmon/pfmlib_perf_event.h
libncurses-dev:/usr/include/ncurses.h
libnuma-dev:/usr/include/numa.h
libtraceevent-dev:/usr/include/traceevent/event-parse.h
libtracefs-dev:/usr/include/tracefs/tracefs.h
libelf-dev:/usr/include/libelf.h
libdw-dev:/usr/include/elfutils/libdw.h
pkg-config:/usr/bin/pkg-config
make:/usr/bin/make
gcc:/usr/bin/gcc
xz-utils:/usr/bin/xz
clang:/usr/bin/clang
libbpf-dev:/usr/include/bpf/libbpf.h
bpftool:/usr/sbin/bpftool
man-db:/usr/bin/man
"
test_pkgs="
libcmocka-dev:/usr/include/cmocka.h
tmux:/usr/bin/tmux
rt-tests:/usr/bin/hackbench
linux-perf:/usr/bin/perf
bpftrace:/usr/bin/bpftrace
dbench:/usr/bin/tbench
valgrind:/usr/bin/valgrind
cppcheck:/usr/bin/cppcheck
libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a
bc:/usr/bin/bc
librsvg2-bin:/usr/bin/rsvg-convert
chromium:/usr/bin/chromium
python3-websocket:/usr/lib/python3/dist-packages/websocket/__init__.py
qemu-system-x86:/usr/bin/qemu-system-x86_64
busybox-static:/bin/busybox
zstd:/usr/bin/zstd
"
[ $want_test -eq 1 ] && pkgs="$pkgs $test_pkgs"

missing=""
for p in $pkgs; do
	name=${p%%:*}
	file=${p#*:}
	[ -e "$file" ] || missing="$missing $name"
done

have_libperf() {
	PKG_CONFIG_PATH=/usr/local/lib64/pkgconfig:/usr/local/lib/pkgconfig:${PKG_CONFIG_PATH:-} \
		pkg-config --exists libperf 2>/dev/null
}
have_libperf || missing="$missing linux-source-6.1"

[ -z "$missing" ] && exit 0
if [ $check_only -eq 1 ]; then
	echo "locus: missing:$missing (run scripts/deps.sh as root to install them)" >&2
	exit 1
fi

if ! command -v apt-get >/dev/null; then
	echo "locus: missing:$missing (Debian names; on Fedora see README: dnf install ...)" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "locus: missing packages:$missing (run scripts/deps.sh as root, or install them)" >&2
	exit 1
fi

echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null

have_libperf && exit 0

# libperf is not packaged in Debian 12: build it from Debian's kernel source.
echo "deps: building libperf from linux-source-6.1 into /usr/local" >&2
tarball=$(ls /usr/src/linux-source-6.1*.tar.xz | head -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
top=$(basename "$tarball" .tar.xz)
tar -C "$work" -xJf "$tarball" --wildcards \
	"$top/tools/lib/perf" "$top/tools/lib/api" "$top/tools/lib/*.c" \
	"$top/tools/include" "$top/tools/build" "$top/tools/scripts" \
	"$top/tools/arch/x86/include" "$top/include/uapi" "$top/arch/x86/include/uapi"
make -s -C "$work/$top/tools/lib/perf" prefix=/usr/local \
	install_lib install_headers install_pkgconfig >/dev/null 2>&1 || {
	echo "locus: building libperf failed (see make -C tools/lib/perf in linux-source-6.1)" >&2
	exit 1
}
ldconfig
have_libperf || { echo "locus: libperf installed but pkg-config cannot find it" >&2; exit 1; }
