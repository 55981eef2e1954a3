# locus - build, test, install. `make` builds ./locus; `make check` runs every test layer.
VERSION := 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
# V=1 shows the full commands.
Q := $(if $(V),,@)

# libperf is built into /usr/local on Debian (scripts/deps.sh); make < 4.4 does not
# pass exported variables to $(shell), so the path goes on each call.
PKGCONF := PKG_CONFIG_PATH=/usr/local/lib64/pkgconfig:/usr/local/lib/pkgconfig:$(PKG_CONFIG_PATH) pkg-config

PKGS := libperf numa libtracefs libtraceevent libdw
# Recursive (=) so they are read after `deps` has installed what a fresh machine lacks.
PERF_LIBDIR = $(shell $(PKGCONF) --variable=libdir libperf 2>/dev/null)
DEP_CFLAGS = $(shell $(PKGCONF) --cflags $(PKGS) 2>/dev/null)
# ncursesw: only report/tui.c includes curses (it sets its own feature macros)
DEP_LIBS = $(shell $(PKGCONF) --libs $(PKGS) ncursesw libbpf 2>/dev/null) -lpfm -lm -lpthread \
	   -Wl,-rpath,$(PERF_LIBDIR)

# snprintf truncation is deliberate (bounded text fields), so that warning is off.
WARN := -Wall -Wextra -Werror -Wformat=2 -Wshadow -Wstrict-prototypes -Wno-unused-parameter \
	-Wno-format-truncation
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) -DLOCUS_VERSION=\"$(VERSION)\" $(DEP_CFLAGS) -I$(BPF_DIR) -MMD -MP
SAN_FLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all

# The BPF collector: clang -target bpf against the running kernel's BTF (CO-RE), and a
# bpftool skeleton. Without BTF or bpftool at build time the skeleton header says so
# and the collector reports itself absent.
BPF_DIR := build/bpf
BTF := /sys/kernel/btf/vmlinux

LIB_SRCS := $(wildcard common/*.c model/*.c collectors/*.c analyzers/*.c report/*.c pipeline/*.c workloads/*.c) \
	    $(filter-out cli/main.c,$(wildcard cli/*.c))
MAIN_SRC := cli/main.c
UNIT_SRCS := $(wildcard tests/unit/test_*.c)

OBJ_DIR := build/obj
SAN_DIR := build/san
LIB_OBJS := $(LIB_SRCS:%.c=$(OBJ_DIR)/%.o)
SAN_OBJS := $(LIB_SRCS:%.c=$(SAN_DIR)/%.o)
UNITS := $(UNIT_SRCS:tests/unit/%.c=build/unit/%)
SAN_UNITS := $(UNIT_SRCS:tests/unit/%.c=build/unit-san/%)

.PHONY: all deps test-deps fixtures demo check unit unit-san e2e install install-man clean format bench fuzz \
	bench-variants lab-check

all: locus

# `make demo`, `make check`, `make bench`, `make fuzz` and `make lab-check` install what is missing; a plain
# `make` only builds, and says in one line what is missing.
DEPS_MODE := $(if $(filter demo check bench fuzz lab-check,$(MAKECMDGOALS)),,--check)
deps:
	@scripts/deps.sh $(DEPS_MODE)

test-deps: deps
	@scripts/deps.sh --test $(DEPS_MODE)

locus: $(OBJ_DIR)/cli/main.o build/liblocus.a | deps
	@echo "  LINK    $@"
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(DEP_LIBS)

$(BPF_DIR)/sched.skel.h: collectors/bpf/sched.bpf.c collectors/bpf/core.bpf.h collectors/bpf/idle.bpf.h collectors/bpf/stacks.bpf.h collectors/bpf/tasks.bpf.h collectors/bpf/blame.bpf.h collectors/bpf/sched_bpf.h model/sched_measures.def | deps
	@mkdir -p $(@D)
	@echo "  BPF     $@"
	$(Q)if test -r $(BTF) && command -v bpftool >/dev/null && command -v clang >/dev/null; then \
		bpftool btf dump file $(BTF) format c >$(BPF_DIR)/vmlinux.h && \
		clang -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 -I$(BPF_DIR) -Icollectors/bpf \
			-c $< -o $(BPF_DIR)/sched.bpf.o && \
		bpftool gen skeleton $(BPF_DIR)/sched.bpf.o name locus_sched >$@.tmp && mv $@.tmp $@; \
	else \
		echo "/* no kernel BTF, bpftool or clang at build time */" >$@; \
		echo "#define LOCUS_NO_BPF 1" >>$@; \
	fi

$(OBJ_DIR)/collectors/bpf_sched.o $(SAN_DIR)/collectors/bpf_sched.o $(OBJ_DIR)/collectors/bpf_read.o $(SAN_DIR)/collectors/bpf_read.o: $(BPF_DIR)/sched.skel.h
$(OBJ_DIR)/collectors/bpf_cost.o $(SAN_DIR)/collectors/bpf_cost.o build/fuzz/collectors/bpf_cost.o: $(BPF_DIR)/sched.skel.h
$(OBJ_DIR)/collectors/bpf_stacks.o $(SAN_DIR)/collectors/bpf_stacks.o build/fuzz/collectors/bpf_stacks.o: $(BPF_DIR)/sched.skel.h
$(OBJ_DIR)/collectors/bpf_blame.o $(SAN_DIR)/collectors/bpf_blame.o build/fuzz/collectors/bpf_blame.o: $(BPF_DIR)/sched.skel.h
build/fuzz/collectors/bpf_sched.o build/fuzz/collectors/bpf_read.o: $(BPF_DIR)/sched.skel.h

build/liblocus.a: $(LIB_OBJS)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

build/liblocus-san.a: $(SAN_OBJS)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(OBJ_DIR)/%.o: %.c | deps
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(SAN_DIR)/%.o: %.c | deps
	@mkdir -p $(@D)
	@echo "  CC-SAN  $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -c -o $@ $<

build/unit/%: tests/unit/%.c build/liblocus.a | test-deps
	@mkdir -p $(@D)
	@echo "  TEST    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< build/liblocus.a $(DEP_LIBS) -lcmocka

build/unit-san/%: tests/unit/%.c build/liblocus-san.a | test-deps
	@mkdir -p $(@D)
	@echo "  TEST    $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -o $@ $< build/liblocus-san.a $(DEP_LIBS) -lcmocka

build/locus-san: $(SAN_DIR)/cli/main.o build/liblocus-san.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(DEP_LIBS)

build/synth: bench/synth.c build/liblocus.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< build/liblocus.a $(DEP_LIBS)

# The floor of any BPF collector (bench/perturb.sh): two empty programs and their loader.
build/floor.bpf.o: bench/floor.bpf.c $(BPF_DIR)/sched.skel.h
	@echo "  BPF     $@"
	$(Q)clang -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 -I$(BPF_DIR) -c $< -o $@

build/floor: bench/floor.c common/bench_pause.c build/floor.bpf.o
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< common/bench_pause.c common/util.c $(DEP_LIBS)

# The floor with a third empty program on ipi_send_cpu: the least an IPI-counting collector costs.
build/floor-ipi.bpf.o: bench/floor.bpf.c $(BPF_DIR)/sched.skel.h
	@echo "  BPF     $@"
	$(Q)clang -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 -DFLOOR_IPI -I$(BPF_DIR) -c $< -o $@

build/floor-ipi: bench/floor.c common/bench_pause.c build/floor-ipi.bpf.o
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -DFLOOR_PROGS=3 -o $@ $< common/bench_pause.c common/util.c $(DEP_LIBS)

# A collector's perturbation inside one run: windows with it detached and attached again.
build/pausebench: bench/pausebench.c
	@echo "  LINK    $@"
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< -lpthread

# Bench-only builds of locus with features of the BPF collector compiled out
# (collectors/bpf/sched.bpf.c's LOCUS_NO_* macros): build/variants/locus-no-FEATURE, and
# locus-core with every one out. bench/cost_table.sh measures them for docs/cost.md. Never
# built by default nor by `make check`; their results are not whole.
VAR_DIR := build/variants
VARIANT_idle := LOCUS_NO_IDLE
VARIANT_pairs := LOCUS_NO_PAIRS
VARIANT_timing := LOCUS_NO_TIMING
VARIANT_place := LOCUS_NO_PLACE
VARIANT_ipi := LOCUS_NO_IPI
VARIANT_migrate := LOCUS_NO_MIGRATE
VARIANT_tasks := LOCUS_NO_TASKS
VARIANT_core := $(foreach v,idle pairs timing place ipi migrate tasks,$(VARIANT_$(v)))
VARIANT_NAMES := idle pairs timing place ipi migrate tasks core
VARIANT_BINS := $(patsubst %,$(VAR_DIR)/locus-no-%,$(filter-out core,$(VARIANT_NAMES))) \
		$(VAR_DIR)/locus-core
# the objects that include the skeleton, rebuilt against each variant's
SKEL_USERS := collectors/bpf_sched.o collectors/bpf_read.o collectors/bpf_cost.o collectors/bpf_stacks.o \
	      collectors/bpf_blame.o

define VARIANT_RULES
$(VAR_DIR)/$(1)/sched.skel.h: collectors/bpf/sched.bpf.c collectors/bpf/core.bpf.h collectors/bpf/idle.bpf.h collectors/bpf/stacks.bpf.h collectors/bpf/tasks.bpf.h collectors/bpf/blame.bpf.h \
		collectors/bpf/sched_bpf.h model/sched_measures.def $(BPF_DIR)/sched.skel.h
	@mkdir -p $$(@D)
	@echo "  BPF     $$@ ($(VARIANT_$(1)))"
	$(Q)clang -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 $(VARIANT_$(1):%=-D%) \
		-I$(BPF_DIR) -Icollectors/bpf -c $$< -o $(VAR_DIR)/$(1)/sched.bpf.o && \
		bpftool gen skeleton $(VAR_DIR)/$(1)/sched.bpf.o name locus_sched >$$@.tmp && \
		mv $$@.tmp $$@

$(VAR_DIR)/$(1)/%.o: %.c $(VAR_DIR)/$(1)/sched.skel.h | deps
	@mkdir -p $$(@D)
	@echo "  CC      $$< ($(1))"
	$(Q)$(CC) -I$(VAR_DIR)/$(1) $$(ALL_CFLAGS) -c -o $$@ $$<
endef
$(foreach v,$(VARIANT_NAMES),$(eval $(call VARIANT_RULES,$(v))))

$(VAR_DIR)/locus-no-%: $(OBJ_DIR)/cli/main.o $(VAR_DIR)/%/collectors/bpf_sched.o \
		$(VAR_DIR)/%/collectors/bpf_read.o $(VAR_DIR)/%/collectors/bpf_cost.o build/liblocus.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(DEP_LIBS)

$(VAR_DIR)/locus-core: $(OBJ_DIR)/cli/main.o $(SKEL_USERS:%=$(VAR_DIR)/core/%) build/liblocus.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(DEP_LIBS)

bench-variants: $(VARIANT_BINS)
.SECONDARY: $(foreach v,$(VARIANT_NAMES),$(SKEL_USERS:%=$(VAR_DIR)/$(v)/%))

build/mutate-san: tests/fuzz/mutate.c tests/fuzz/target.h build/liblocus-san.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -o $@ $< build/liblocus-san.a $(DEP_LIBS)

# libFuzzer needs clang: the library is rebuilt with its instrumentation.
FUZZ_DIR := build/fuzz
FUZZ_FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_OBJS := $(LIB_SRCS:%.c=$(FUZZ_DIR)/%.o)
FUZZ_SECONDS ?= 600

$(FUZZ_DIR)/%.o: %.c | test-deps
	@mkdir -p $(@D)
	@echo "  CC-FUZZ $<"
	$(Q)clang -std=gnu11 -g -O1 -DLOCUS_VERSION=\"$(VERSION)\" $(DEP_CFLAGS) -I$(BPF_DIR) $(FUZZ_FLAGS) -MMD -MP -c -o $@ $<

build/liblocus-fuzz.a: $(FUZZ_OBJS)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

build/fuzz_perfdata: tests/fuzz/fuzz_perfdata.c tests/fuzz/target.h build/liblocus-fuzz.a
	@echo "  LINK    $@"
	$(Q)clang -std=gnu11 -g -O1 -DLOCUS_VERSION=\"$(VERSION)\" $(DEP_CFLAGS) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $< build/liblocus-fuzz.a $(DEP_LIBS)

build/fuzz_schedstat: tests/fuzz/fuzz_schedstat.c build/liblocus-fuzz.a
	@echo "  LINK    $@"
	$(Q)clang -std=gnu11 -g -O1 -DLOCUS_VERSION=\"$(VERSION)\" $(DEP_CFLAGS) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $< build/liblocus-fuzz.a $(DEP_LIBS)

build/fuzz_folded: tests/fuzz/fuzz_folded.c build/liblocus-fuzz.a
	@echo "  LINK    $@"
	$(Q)clang -std=gnu11 -g -O1 -DLOCUS_VERSION=\"$(VERSION)\" $(DEP_CFLAGS) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $< build/liblocus-fuzz.a $(DEP_LIBS)

build/fuzz_sweep: tests/fuzz/fuzz_sweep.c build/liblocus-fuzz.a
	@echo "  LINK    $@"
	$(Q)clang -std=gnu11 -g -O1 -DLOCUS_VERSION=\"$(VERSION)\" $(DEP_CFLAGS) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $< build/liblocus-fuzz.a $(DEP_LIBS)

# Fuzz the perf.data reader, the run JSON reader (locus diff), the schedstat reader, the
# folded-stacks reader (locus diff, flame graphs), FUZZ_SECONDS each
# (default 600), from the seed corpora.
fuzz: $(FIXTURES) build/fuzz_perfdata build/fuzz_sweep build/fuzz_schedstat build/fuzz_folded
	@mkdir -p build/fuzz-corpus build/fuzz-corpus-sweep build/fuzz-corpus-schedstat build/fuzz-corpus-folded
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp build/fuzz_perfdata \
		-max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
		build/fuzz-corpus tests/fuzz/corpus
	build/fuzz_sweep -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
		build/fuzz-corpus-sweep tests/fuzz/corpus-sweep
	build/fuzz_schedstat -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
		build/fuzz-corpus-schedstat tests/fuzz/corpus-schedstat
	build/fuzz_folded -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
		build/fuzz-corpus-folded tests/fuzz/corpus-folded

# Build, make the fixtures the README's examples use, install locus under PREFIX as root
# (the binary on PATH, the man pages, the bash completion: every example calls `locus`),
# then run the main job on the built-in workload.
demo: locus fixtures
	$(Q)if [ "$$(id -u)" -eq 0 ]; then \
		$(MAKE) -s install && \
		echo "  INSTALL $(DESTDIR)$(PREFIX)/bin/locus, its man pages and bash completion"; \
	else \
		echo "  (not root: nothing installed; run ./locus, or 'sudo make install')"; \
	fi
	./locus run

unit: $(UNITS)
unit-san: $(SAN_UNITS)

# Every test layer; the last line is the runner's summary.
build/schedgen: tests/tools/schedgen.c build/liblocus.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< build/liblocus.a $(DEP_LIBS)

build/flamegen: tests/tools/flamegen.c build/liblocus.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< build/liblocus.a $(DEP_LIBS)

build/memgen: tests/tools/memgen.c build/liblocus.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< build/liblocus.a $(DEP_LIBS)

# The sysfs-shaped topology trees the tests load: generated, not committed.
FIXTURES := tests/fixtures/topology/.generated
$(FIXTURES): tests/fixtures/topology/make_fixtures.py
	@echo "  GEN     topology fixtures"
	$(Q)cd tests/fixtures/topology && python3 make_fixtures.py && touch .generated
fixtures: $(FIXTURES)

check: $(FIXTURES) locus $(UNITS) $(SAN_UNITS) build/locus-san build/mutate-san build/memgen build/schedgen build/flamegen \
	build/fuzz_perfdata build/fuzz_sweep build/fuzz_schedstat build/fuzz_folded | test-deps
	@tests/run.sh

# The lab: every check of tests/lab inside emulated multi-socket, multi-node guests (Debian's
# 6.1 and 6.12 kernels under QEMU, scripts/lab.sh), one guest at a time; `make check` runs a
# smoke part of it (tests/e2e/lab.sh). Ends with "lab: N passed, N failed, N skipped in S s".
lab-check: locus | test-deps
	@tests/lab/check.sh

# Benchmarks against perf, interleaved, medians, into bench/latest.md (needs root);
# bench/results.md is the record: runs copied there with what was changed and why.
bench: $(FIXTURES) locus build/synth build/memgen build/floor build/floor-ipi build/pausebench bench-variants | test-deps
	@{ echo "# locus benchmarks"; echo; echo "Machine: $$(nproc) CPUs, $$(uname -r), $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"; echo; \
	   bench/perturb.sh 7; echo; VARIANTS="null floor floor-ipi locus-bpf ipis locus-perf perf-ipis perf-sched" bench/pause_perturb.sh 3 20 100; echo; bench/perf_cost.sh 5; echo; bench/report_speed.sh 5; echo; bench/trace_speed.sh 5; echo; bench/c2c_speed.sh 3; echo; bench/dashboard.sh 5 20; echo; bench/snapshot_wait.sh 5; echo; bench/memory.sh 60; echo; \
	   bench/synth_speed.sh 5; echo; bench/cost_table.sh 5; } | tee bench/latest.md

install: locus install-man
	install -D -m 0755 locus $(DESTDIR)$(PREFIX)/bin/locus
	install -D -m 0644 contrib/locus.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/locus

install-man:
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

format:
	clang-format -i $(LIB_SRCS) $(MAIN_SRC) $(UNIT_SRCS)

clean:
	rm -rf build locus tests/out

-include $(LIB_OBJS:.o=.d) $(SAN_OBJS:.o=.d) $(FUZZ_OBJS:.o=.d) $(OBJ_DIR)/cli/main.d
