# tracerd — one entry point. See README.md.
#   make [all] | check | check-tsan | check-be | check-abi | install | uninstall | demo | fuzz | fuzz-long | bench | bench-cli | clean
# Variables: CC, CFLAGS, CPPFLAGS, LDFLAGS, PREFIX, LIBDIR, INCLUDEDIR, PKGCONFIGDIR, MANDIR,
#   DESTDIR, SAN=1 (ASan + UBSan), TSAN=1 (ThreadSanitizer), WERROR=1 (warnings are errors, as in CI), B (build folder).

CC ?= cc
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=

# The version lives in include/tracerd/core.h only.
VERSION_LINE = $(shell sed -n 's/^\#define TRACERD_VERSION_$(1) \([0-9]*\).*/\1/p' include/tracerd/core.h)
MAJOR := $(call VERSION_LINE,MAJOR)
MINOR := $(call VERSION_LINE,MINOR)
PATCH := $(call VERSION_LINE,PATCH)
VERSION := $(MAJOR).$(MINOR).$(PATCH)

ifeq ($(SAN),1)
B ?= build-san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else ifeq ($(TSAN),1)
B ?= build-tsan
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
else
B ?= build
SANFLAGS :=
endif

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wcast-qual -Wstrict-prototypes \
        -Wmissing-prototypes -Wno-sign-conversion
ifeq ($(WERROR),1)
WARN += -Werror
endif
OPT ?= -O2 -g
BASE_CFLAGS := -std=c11 $(WARN) $(OPT) -fvisibility=hidden -fPIC $(SANFLAGS)
BASE_CPPFLAGS := -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Iinclude
ALL_CFLAGS = $(BASE_CPPFLAGS) $(CPPFLAGS) $(BASE_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)

CHECK_CFLAGS ?= $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS ?= $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm -pthread)

LIB_SRC := $(sort $(wildcard libtracerd/*/*.c))
# What the library links against (CTF 2 metadata is JSON, read with jansson).
LIB_LIBS := -ljansson -lm
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
CLI_SRC := $(sort $(wildcard tools/tracerd/*.c))
CLI_OBJ := $(CLI_SRC:%.c=$(B)/%.o)
CLI_FORMATS := $(patsubst tools/tracerd/fmt_%.c,%,$(wildcard tools/tracerd/fmt_*.c))
SUPPORT_SRC := $(sort $(wildcard tests/support/*.c))
SUPPORT_OBJ := $(SUPPORT_SRC:%.c=$(B)/%.o)
SUITES := $(patsubst tests/check_%.c,%,$(filter-out tests/check_main.c,$(wildcard tests/check_*.c)))
TEST_SRC := tests/check_main.c $(SUITES:%=tests/check_%.c)
TEST_OBJ := $(TEST_SRC:%.c=$(B)/%.o)
FUZZ_TARGETS := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_SUPPORT := $(filter-out fuzz/driver.c $(wildcard fuzz/fuzz_*.c),$(wildcard fuzz/*.c))
# The trace writers of tests/support/ (and tlog.c, which some use), shared by
# the tests, the fuzz targets and the benchmarks through the build (compiled
# in, never #include-d as .c files).
WRITER_SRC := $(sort $(wildcard tests/support/*_writer.c)) tests/support/tlog.c
# One recorder per format (tests/support/<format>_recorder.c over rec.c):
# the suites log with it, the fuzz targets hash with it, the benchmarks count
# with it. Like the writers, they use neither Check nor the drivers.
RECORDER_SRC := tests/support/rec.c $(sort $(wildcard tests/support/*_recorder.c))
SHARED_SRC := $(WRITER_SRC) $(RECORDER_SRC)
# The same objects the tests link, linked into the corpus replays and the benchmarks.
SHARED_OBJ := $(SHARED_SRC:%.c=$(B)/%.o)
BENCHES := $(patsubst bench/bench_%.c,%,$(wildcard bench/bench_*.c))
EXAMPLES := $(patsubst examples/%.c,%,$(wildcard examples/*.c))
HEADERS := $(wildcard include/tracerd/*.h)

STATIC_LIB := $(B)/libtracerd.a
SHARED_LIB := $(B)/libtracerd.so.$(VERSION)
# Before 1.0 every minor release may change the ABI (doc/api.md, "ABI"): the
# soname carries the minor number then (libtracerd.so.0.2), the major after.
SONAME := libtracerd.so.$(if $(filter 0,$(MAJOR)),$(MAJOR).$(MINOR),$(MAJOR))
CLI := $(B)/tracerd

.PHONY: bench-cli
.PHONY: all lib check check-tsan check-readme check-unit check-headers check-replay check-pkgconfig check-abi check-be \
        check-examples demo fuzz fuzz-long fuzz-replay bench install uninstall clean format format-check deps-check \
        python check-python bench-python

all: $(STATIC_LIB) $(SHARED_LIB) $(CLI)
lib: $(STATIC_LIB) $(SHARED_LIB)

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(STATIC_LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(SHARED_LIB): $(LIB_OBJ) libtracerd/libtracerd.map
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=libtracerd/libtracerd.map \
	    $(ALL_LDFLAGS) -o $@ $(LIB_OBJ) $(LIB_LIBS)
	ln -sf libtracerd.so.$(VERSION) $(B)/$(SONAME)
	ln -sf libtracerd.so.$(VERSION) $(B)/libtracerd.so

# Generated lists, rewritten only when the set of files changes.
define WRITE_IF_CHANGED
	@mkdir -p $(@D)
	@printf '%s\n' $(2) > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
endef
$(B)/gen/formats.h: FORCE
	$(call WRITE_IF_CHANGED,$@,$(foreach f,$(CLI_FORMATS),'X($(f))'))
$(B)/gen/suites.h: FORCE
	$(call WRITE_IF_CHANGED,$@,$(foreach s,$(SUITES),'X($(s))'))
FORCE:

$(CLI_OBJ): $(B)/gen/formats.h
$(B)/tools/%.o: ALL_CFLAGS += -I$(B)/gen
$(CLI): $(CLI_OBJ) $(STATIC_LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJ) $(STATIC_LIB) $(LIB_LIBS)

# ---- tests ------------------------------------------------------------------
$(B)/tests/%.o: ALL_CFLAGS += $(CHECK_CFLAGS) -Itests -Wno-missing-prototypes
$(B)/tests/check_main.o: $(B)/gen/suites.h
$(B)/tests/check_main.o: ALL_CFLAGS += -I$(B)/gen
$(B)/check_tracerd: $(TEST_OBJ) $(SUPPORT_OBJ) $(STATIC_LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $(TEST_OBJ) $(SUPPORT_OBJ) $(STATIC_LIB) $(CHECK_LIBS) $(LIB_LIBS)
# Writes one hostile input of any size to files (issue 14): build/hostile_gen CLASS N OUTDIR
$(B)/hostile_gen: $(B)/tests/hostile/gen_hostile.o $(SUPPORT_OBJ) $(STATIC_LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(SUPPORT_OBJ) $(STATIC_LIB) $(CHECK_LIBS) $(LIB_LIBS)

deps-check:
	@sh tools/deps.sh check

check: deps-check
	@$(MAKE) --no-print-directory check-unit check-headers check-replay check-examples check-abi check-pkgconfig \
	    check-readme check-python

check-unit: all $(B)/check_tracerd $(B)/hostile_gen
	TRACERD_CLI=$(CLI) $(B)/check_tracerd

# One translation unit per public header (self-containment), and a C++ compile of the umbrella.
check-headers:
	@mkdir -p $(B)/headers
	@for h in $(HEADERS); do n=$$(basename $$h .h); \
	  printf '#include <tracerd/%s.h>\n' $$n > $(B)/headers/$$n.c; \
	  $(CC) $(BASE_CPPFLAGS) $(BASE_CFLAGS) -c $(B)/headers/$$n.c -o $(B)/headers/$$n.o || exit 1; done
	@if command -v g++ >/dev/null; then printf '#include <tracerd/tracerd.h>\nint main(){return tracerd_version_number()==0;}\n' > $(B)/headers/cxx.cc; \
	  g++ -std=c++11 -Wall -Wextra -Werror -Iinclude -c $(B)/headers/cxx.cc -o $(B)/headers/cxx.o; fi
	@echo "headers: $(words $(HEADERS)) self-contained"

# Replay every fuzz corpus through the targets built with $(CC) and the plain driver.
FUZZ_REPLAY_BINS := $(FUZZ_TARGETS:%=$(B)/fuzz/replay_%)
$(B)/fuzz/replay_%: fuzz/fuzz_%.c fuzz/driver.c $(FUZZ_SUPPORT) $(wildcard fuzz/*.h) $(SHARED_OBJ) $(STATIC_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Itests -o $@ $< fuzz/driver.c $(FUZZ_SUPPORT) $(SHARED_OBJ) $(STATIC_LIB) $(ALL_LDFLAGS) $(LIB_LIBS)
check-replay: $(FUZZ_REPLAY_BINS)
	@for t in $(FUZZ_TARGETS); do $(B)/fuzz/replay_$$t fuzz/corpus/$$t || exit 1; done

EXAMPLE_BINS := $(EXAMPLES:%=$(B)/examples/%)
$(B)/examples/%: examples/%.c $(STATIC_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(STATIC_LIB) $(ALL_LDFLAGS) $(LIB_LIBS)
check-examples: $(EXAMPLE_BINS)

check-abi: $(SHARED_LIB)
	@bad=$$(nm -D --defined-only $(SHARED_LIB) | awk '{print $$3}' | grep -v '^tracerd_' | grep -v '^TRACERD_'; \
	        nm -D --defined-only $(SHARED_LIB) | awk '{print $$3}' | grep '^tracerd__'); \
	if [ -n "$$bad" ]; then echo "check-abi: unexpected exported symbols:"; echo "$$bad"; exit 1; fi; \
	echo "check-abi: $$(nm -D --defined-only $(SHARED_LIB) | grep -c ' T tracerd_') exported functions, all tracerd_*"
	@# not thread-safe libc calls the library must not make (readers run in several threads)
	@bad=$$(nm -D --undefined-only $(SHARED_LIB) | awk '{print $$2}' | sed 's/@.*//' | \
	        grep -xE 'strerror|strtok|localtime|gmtime|ctime|asctime|rand|getenv'); \
	if [ -n "$$bad" ]; then echo "check-abi: the library calls thread-unsafe functions:"; echo "$$bad"; exit 1; fi
	@# the `size` member of every growing public struct stays where 0.2 put it (tests/abi_layout.c)
	@$(CC) $(ALL_CFLAGS) tests/abi_layout.c -o $(B)/abi_layout
	@$(B)/abi_layout | diff -u tests/abi_layout.txt - || \
	    { echo "check-abi: a public struct's 0.2 layout changed (tests/abi_layout.txt: a new minor version)"; exit 1; }
	@echo "check-abi: $$(wc -l < tests/abi_layout.txt) growing structs keep their 0.2 layout"

check-pkgconfig: all
	@sh tests/pkgconfig_test.sh "$(MAKE)" "$(CC)" "$(SANFLAGS)"

check-readme: $(STATIC_LIB)
	@sh tests/readme_test.sh "$(B)" "$(CC)" "$(SANFLAGS)"

# ---- Python bindings (python/) ------------------------------------------------
# Debian's python3 (where python3-pytest, -numpy, -pandas, -bt2 live) unless PYTHON is given.
PYTHON ?= $(shell if [ -x /usr/bin/python3 ]; then echo /usr/bin/python3; \
            elif command -v python3 >/dev/null; then echo python3; fi)
PY_OUT := $(abspath $(B))/python
PY_ENV = CC="$(CC)" TRACERD_INCLUDE=$(abspath include) TRACERD_STATIC=$(abspath $(STATIC_LIB)) \
         TRACERD_CFLAGS="$(if $(filter 1,$(WERROR)),-Werror) $(SANFLAGS)" TRACERD_LDFLAGS="$(SANFLAGS)"
# With SAN=1 the interpreter preloads the sanitizer runtimes. LeakSanitizer is
# off there: the interpreter does not free its own objects at exit. Leaks are
# checked by python/tests/test_memory.py under tracemalloc instead, which sees
# every allocation of the extension and of the library (PyMem_Raw* allocator).
PY_RUN = $(if $(SANFLAGS),LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
         ASAN_OPTIONS=detect_leaks=0 PYTHONMALLOC=malloc) PYTHONPATH=$(PY_OUT)/lib
python: $(STATIC_LIB)
	@if [ -z "$(PYTHON)" ]; then echo "python: no python3: nothing built"; exit 0; fi; \
	cd python && $(PY_ENV) $(PYTHON) setup.py -q build_py -d $(PY_OUT)/lib \
	    build_ext -b $(PY_OUT)/lib -t $(PY_OUT)/tmp
check-python: python $(CLI) $(SHARED_LIB)
	@if [ -z "$(PYTHON)" ]; then echo "check-python: skipped (no python3)"; exit 0; fi; \
	cd $(PY_OUT) && $(PY_RUN) TRACERD_CLI=$(abspath $(CLI)) TRACERD_LIBDIR=$(abspath $(B)) $(PYTHON) -m pytest -q -p no:cacheprovider $(abspath python/tests)
bench-python: python
	cd bench && $(PY_RUN) nice $(PYTHON) bench_python.py

# Readers in several threads at once under ThreadSanitizer (clang): the
# threads suite (tests/check_threads.c), which any data race fails.
check-tsan:
	@$(MAKE) --no-print-directory TSAN=1 CC=clang B=build-tsan build-tsan/check_tracerd
	CK_RUN_SUITE=threads CK_FORK=no TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
	    build-tsan/check_tracerd

# Big-endian host: the unit suite cross-compiled for s390x and run under qemu-user.
check-be:
	@sh tools/deps.sh be
	@sh tools/check-be.sh "$(MAKE)"

# ---- demo -------------------------------------------------------------------
DEMO_TRACES := $(sort $(filter-out %.gold %.sh %.py %.txt %.md,$(wildcard tests/data/*/demo*)))
demo:
	@sh tools/deps.sh build
	@$(MAKE) --no-print-directory all
	@for t in $(DEMO_TRACES); do \
	  echo "== tracerd info $$t"; $(CLI) info $$t || exit 1; \
	  echo "== tracerd dump $$t | head -n 12"; $(CLI) dump $$t | head -n 12; done
	@echo "== tracerd stats tests/data/xray/demo-fdr.xray"
	@$(CLI) stats --quiet tests/data/xray/demo-fdr.xray
	@echo "== tracerd json tests/data/fxt/demo.fxt | head -n 8 (open the whole file in ui.perfetto.dev)"
	@$(CLI) json --quiet tests/data/fxt/demo.fxt | head -n 8
	@echo "== tracerd stats --sort p99 --format csv tests/data/event/xray_fdr_real.xray"
	@$(CLI) stats --quiet --sort p99 --format csv tests/data/event/xray_fdr_real.xray
	@echo "== tracerd json --begin +2ms --end +2.1ms --name 'tracerd:t*' tests/data/ctf/demo-lttng-ust | head -n 4"
	@$(CLI) json --quiet --begin +2ms --end +2.1ms --name 'tracerd:t*' tests/data/ctf/demo-lttng-ust | head -n 4
	@echo "== tracerd stack tests/data/event/xray_fdr_real.xray (folded: pipe into flamegraph.pl)"
	@$(CLI) stack --quiet tests/data/event/xray_fdr_real.xray
	@echo "== tracerd stack --format text --top 1 tests/data/fxt/demo.fxt"
	@$(CLI) stack --quiet --format text --top 1 tests/data/fxt/demo.fxt
	@echo "== tracerd perfetto tests/data/fxt/demo.fxt > $(B)/demo.pftrace (open it in ui.perfetto.dev)"
	@$(CLI) perfetto --quiet tests/data/fxt/demo.fxt > $(B)/demo.pftrace && ls -l $(B)/demo.pftrace
	@echo "== tracerd info --json tests/data/ctf/demo-lttng-ust"
	@$(CLI) info --json --quiet tests/data/ctf/demo-lttng-ust

# ---- fuzz (clang + libFuzzer) -------------------------------------------------
FUZZ_CC ?= clang
FUZZ_BINS := $(FUZZ_TARGETS:%=$(B)/fuzz/fuzz_%)
# The library, the writers, the recorders and the fuzz support are compiled once (objects in
# $(B)/fuzz/obj/, instrumented for the fuzzer with -fsanitize=fuzzer-no-link)
# and linked into every target; only fuzz/fuzz_<target>.c is per target.
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer $(FUZZ_SAN)
FUZZ_OBJ_FLAGS := -std=c11 $(BASE_CPPFLAGS) -g -O1 -fsanitize=fuzzer-no-link $(FUZZ_SAN) -Itests
FUZZ_COMMON_OBJ := $(patsubst %.c,$(B)/fuzz/obj/%.o,$(LIB_SRC) $(SHARED_SRC) $(FUZZ_SUPPORT))
$(B)/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_OBJ_FLAGS) -MMD -MP -c $< -o $@
# (kept after the link: not intermediate files make would delete)
.SECONDARY: $(FUZZ_COMMON_OBJ) $(FUZZ_TARGETS:%=$(B)/fuzz/obj/fuzz/fuzz_%.o)
$(B)/fuzz/fuzz_%: $(B)/fuzz/obj/fuzz/fuzz_%.o $(FUZZ_COMMON_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_COMMON_OBJ) $(LIB_LIBS)
fuzz: $(FUZZ_BINS)
	@echo "fuzz targets: $(FUZZ_BINS)"
	@echo "run one: $(B)/fuzz/fuzz_<target> fuzz/corpus/<target> -dict=fuzz/dict/<target>.dict -max_total_time=60"
# Every target for FUZZ_SECONDS each (default 10 minutes), with its dictionary,
# -timeout and -rss_limit_mb (a slow or fat input is a finding); summary in
# $(B)/fuzz-long/summary.txt, findings in $(B)/fuzz-long/<target>/ (doc/FUZZING.md).
FUZZ_SECONDS ?= 600
FUZZ_LONG_TARGETS ?= $(FUZZ_TARGETS)
fuzz-long: $(FUZZ_LONG_TARGETS:%=$(B)/fuzz/fuzz_%)
	@sh tools/fuzz-long.sh $(B) $(FUZZ_SECONDS) $(FUZZ_LONG_TARGETS)

# ---- bench ------------------------------------------------------------------
BENCH_BINS := $(BENCHES:%=$(B)/bench/bench_%)
$(B)/bench/bench_%: bench/bench_%.c $(wildcard bench/*.h) $(SHARED_OBJ) $(STATIC_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -O3 -march=native -Wno-missing-prototypes -Itests -o $@ $< $(SHARED_OBJ) $(STATIC_LIB) $(ALL_LDFLAGS) $(LIB_LIBS)
bench: $(BENCH_BINS)
	@for b in $(BENCHES); do echo "== bench $$b"; $(B)/bench/bench_$$b || exit 1; done

# The CLI end to end beside the peers on big inputs of every format (bench/cli.sh; minutes, not CI).
$(B)/bench/gen_ctf_dir: bench/cli/gen_ctf_dir.c tests/support/ctf_writer.c tests/support/ctf_writer.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -O3 -Wno-missing-prototypes -o $@ bench/cli/gen_ctf_dir.c tests/support/ctf_writer.c $(ALL_LDFLAGS)
bench-cli: all $(B)/bench/bench_fxt $(B)/bench/bench_xtrace $(B)/bench/gen_ctf_dir
	@sh tools/deps.sh bench
	sh bench/cli.sh $(B)

# ---- install ----------------------------------------------------------------
# The directories the .pc names, rewritten when PREFIX/LIBDIR/INCLUDEDIR change, so that
# `make install` after `make check` (whose pkg-config test installs to a temporary PREFIX)
# installs a tracerd.pc for the PREFIX given to install.
$(B)/gen/pcdirs: FORCE
	$(call WRITE_IF_CHANGED,$@,'$(PREFIX)' '$(LIBDIR)' '$(INCLUDEDIR)')
$(B)/tracerd.pc: pkgconfig/tracerd.pc.in include/tracerd/core.h $(B)/gen/pcdirs
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' $< > $@

install: all $(B)/tracerd.pc
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/tracerd $(DESTDIR)$(PKGCONFIGDIR) \
	    $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libtracerd.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf libtracerd.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libtracerd.so
	install -m 644 $(HEADERS) $(DESTDIR)$(INCLUDEDIR)/tracerd/
	install -m 644 $(B)/tracerd.pc $(DESTDIR)$(PKGCONFIGDIR)/
	install -m 755 $(CLI) $(DESTDIR)$(BINDIR)/
	for m in $(wildcard doc/*.1); do install -m 644 $$m $(DESTDIR)$(MANDIR)/man1/; done
	for m in $(wildcard doc/*.3); do install -m 644 $$m $(DESTDIR)$(MANDIR)/man3/; done

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libtracerd.a $(DESTDIR)$(LIBDIR)/libtracerd.so* \
	    $(DESTDIR)$(PKGCONFIGDIR)/tracerd.pc $(DESTDIR)$(BINDIR)/tracerd
	rm -rf $(DESTDIR)$(INCLUDEDIR)/tracerd
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(wildcard doc/*.1))) \
	      $(addprefix $(DESTDIR)$(MANDIR)/man3/,$(notdir $(wildcard doc/*.3)))

PY_C := $(wildcard python/src/*.c python/src/*.h)
format:
	clang-format -i $(LIB_SRC) $(wildcard libtracerd/*/*.h) $(HEADERS) $(CLI_SRC) $(PY_C)
format-check:
	clang-format --dry-run --Werror $(LIB_SRC) $(wildcard libtracerd/*/*.h) $(HEADERS) $(CLI_SRC) $(PY_C)

clean:
	rm -rf build build-san build-be

-include $(shell find $(B) -name '*.d' 2>/dev/null)
