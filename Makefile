# Chuhan (楚汉): build entry point for distributed testers (OpenBench,
# fishtest forks) and anyone used to Stockfish-style engines. Cargo does the
# work; this file maps the usual variables onto it.
#
#   make [build] [EXE=path] [ARCH=arch]   release build, copied to EXE
#   make profile-build [EXE=..] [ARCH=..] profile-guided build (llvm-profdata), else plain
#   make strip [EXE=..]                   strip the symbols of EXE
#   make net                              no-op: Chuhan has no network file
#   make clean                            remove what these targets built
#   make help                             targets, archs, compilers
#
# With the default ARCH (x86-64) no flag is added and the target directory is
# cargo's own, so `make` gives exactly the binary of `cargo build --release`.

EXE ?= chuhan
ARCH ?= x86-64
COMP ?=
CARGO ?= cargo

# --- ARCH -> rustc code-generation flags -------------------------------------
# Feature sets as in Stockfish's Makefile, each including the ones above it.
F_SSE3_POPCNT := +sse3,+popcnt
F_SSSE3       := +sse3,+ssse3
F_SSE41       := +sse3,+ssse3,+sse4.1,+popcnt
F_AVX2        := $(F_SSE41),+sse4.2,+avx,+avx2,+fma,+lzcnt
F_BMI2        := $(F_AVX2),+bmi1,+bmi2
F_AVXVNNI     := $(F_BMI2),+avxvnni
F_AVX512      := $(F_BMI2),+avx512f,+avx512bw,+avx512dq,+avx512vl
F_VNNI        := $(F_AVX512),+avx512vnni

ARCHS := native x86-64 general-64 x86-64-sse3-popcnt x86-64-ssse3 x86-64-sse41-popcnt \
	x86-64-modern x86-64-avx2 x86-64-bmi2 x86-64-avxvnni x86-64-avx512 x86-64-vnni256 \
	x86-64-vnni512 x86-64-avx512icl x86-64-v2 x86-64-v3 x86-64-v4

flags.native              := -C target-cpu=native
flags.x86-64              :=
flags.general-64          :=
flags.x86-64-sse3-popcnt  := -C target-feature=$(F_SSE3_POPCNT)
flags.x86-64-ssse3        := -C target-feature=$(F_SSSE3)
flags.x86-64-sse41-popcnt := -C target-feature=$(F_SSE41)
flags.x86-64-modern       := -C target-feature=$(F_SSE41)
flags.x86-64-avx2         := -C target-feature=$(F_AVX2)
flags.x86-64-bmi2         := -C target-feature=$(F_BMI2)
flags.x86-64-avxvnni      := -C target-feature=$(F_AVXVNNI)
flags.x86-64-avx512       := -C target-feature=$(F_AVX512)
flags.x86-64-vnni256      := -C target-feature=$(F_VNNI)
flags.x86-64-vnni512      := -C target-feature=$(F_VNNI)
flags.x86-64-avx512icl    := -C target-cpu=icelake-server
flags.x86-64-v2           := -C target-cpu=x86-64-v2
flags.x86-64-v3           := -C target-cpu=x86-64-v3
flags.x86-64-v4           := -C target-cpu=x86-64-v4

ARCH_FLAGS := $(strip $(flags.$(ARCH)))
# The user's RUSTFLAGS come first; the arch flags are added to them.
BUILD_RUSTFLAGS := $(strip $(RUSTFLAGS) $(ARCH_FLAGS))

# The default ARCH builds in cargo's own target directory (the very binary of
# `cargo build --release`); other archs get one directory each, so switching
# arch neither rebuilds nor mixes the default build.
ifeq ($(BUILD_RUSTFLAGS),)
TARGET_DIR := target
else
TARGET_DIR := target/make-$(ARCH)
endif
PGO_DIR := target/pgo-$(ARCH)

# --- llvm-profdata of rustc's own LLVM version -------------------------------
LLVM_MAJOR := $(shell rustc -vV 2>/dev/null | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
SYSROOT_PROFDATA := $(wildcard $(shell rustc --print sysroot 2>/dev/null)/lib/rustlib/$(shell rustc -vV 2>/dev/null | sed -n 's/^host: //p')/bin/llvm-profdata)
PATH_PROFDATA := $(firstword $(foreach p,llvm-profdata llvm-profdata-$(LLVM_MAJOR),$(shell command -v $(p) 2>/dev/null)))
PATH_PROFDATA_MAJOR := $(if $(PATH_PROFDATA),$(shell $(PATH_PROFDATA) merge --version 2>/dev/null | sed -n 's/.*LLVM version \([0-9]*\).*/\1/p' | head -n 1))
ifneq ($(SYSROOT_PROFDATA),)
PROFDATA := $(SYSROOT_PROFDATA)
else ifeq ($(PATH_PROFDATA_MAJOR),$(LLVM_MAJOR))
PROFDATA := $(PATH_PROFDATA)
else
PROFDATA :=
endif

.PHONY: all build profile-build pgo strip net clean help check-arch

all: build

check-arch:
ifeq ($(filter $(ARCH),$(ARCHS)),)
	@echo "error: unknown ARCH '$(ARCH)'; supported: $(ARCHS)" >&2
	@exit 2
endif
ifneq ($(COMP),)
	@echo "note: COMP=$(COMP) ignored: Chuhan is built by rustc ($(shell rustc -V 2>/dev/null))"
endif

build: check-arch
	+$(if $(BUILD_RUSTFLAGS),RUSTFLAGS="$(BUILD_RUSTFLAGS)") $(CARGO) build --release --locked --target-dir $(TARGET_DIR) --bin chuhan
	@mkdir -p "$(dir $(EXE))"
	cp -f $(TARGET_DIR)/release/chuhan "$(EXE)"
	@echo "built $(EXE) (ARCH=$(ARCH)$(if $(ARCH_FLAGS), RUSTFLAGS: $(ARCH_FLAGS)))"

# Profile-guided optimisation: an instrumented build runs `chuhan bench`
# (the training workload), llvm-profdata merges the profile, and the final
# build uses it. Without a matching llvm-profdata: a plain build.
profile-build: check-arch
ifeq ($(PROFDATA),)
	@echo "note: no llvm-profdata for rustc's LLVM $(LLVM_MAJOR) (rustup component add llvm-tools);"
	@echo "note: building without profile-guided optimisation"
	@$(MAKE) --no-print-directory build EXE="$(EXE)" ARCH="$(ARCH)"
else
	rm -rf $(PGO_DIR)/profraw
	@mkdir -p $(PGO_DIR)/profraw
	+RUSTFLAGS="$(BUILD_RUSTFLAGS) -C profile-generate=$(abspath $(PGO_DIR)/profraw)" \
		$(CARGO) build --release --locked --target-dir $(PGO_DIR)/gen --bin chuhan
	$(PGO_DIR)/gen/release/chuhan bench > /dev/null 2>&1
	$(PROFDATA) merge -o $(PGO_DIR)/chuhan.profdata $(PGO_DIR)/profraw
	+RUSTFLAGS="$(BUILD_RUSTFLAGS) -C profile-use=$(abspath $(PGO_DIR)/chuhan.profdata)" \
		$(CARGO) build --release --locked --target-dir $(PGO_DIR)/use --bin chuhan
	@mkdir -p "$(dir $(EXE))"
	cp -f $(PGO_DIR)/use/release/chuhan "$(EXE)"
	@echo "built $(EXE) with profile-guided optimisation (ARCH=$(ARCH), $(PROFDATA))"
endif

pgo: profile-build

strip:
	@test -f "$(EXE)" || { echo "error: $(EXE) not found; run make build first" >&2; exit 2; }
	strip "$(EXE)"

net:
	@echo "Chuhan has no network file: its evaluation is built in. Nothing to download."

clean:
	rm -f "$(EXE)"
	rm -rf target/make-* target/pgo-*
	$(CARGO) clean --release

help:
	@echo "Chuhan build (cargo underneath)"
	@echo ""
	@echo "To compile, type:"
	@echo "  make -j [target] [EXE=path] [ARCH=arch]"
	@echo ""
	@echo "Supported targets:"
	@echo "  build          release build, copied to EXE (default: chuhan in this directory)"
	@echo "  profile-build  profile-guided build (chuhan bench as training) when rustc's"
	@echo "                 llvm-profdata is available, else the same as build"
	@echo "  strip          strip EXE"
	@echo "  net            nothing to do (no network file)"
	@echo "  clean          remove EXE and the release build"
	@echo "  help           this text"
	@echo ""
	@echo "Supported archs:"
	@echo "  native              the CPU of this machine (-C target-cpu=native)"
	@echo "  x86-64              baseline x86-64, no flag (default; the binary of cargo build --release)"
	@echo "  general-64          same as x86-64"
	@echo "  x86-64-sse3-popcnt  x86-64 with sse3 and popcnt"
	@echo "  x86-64-ssse3        x86-64 with sse3 and ssse3"
	@echo "  x86-64-sse41-popcnt x86-64 with sse4.1 and popcnt"
	@echo "  x86-64-modern       same as x86-64-sse41-popcnt"
	@echo "  x86-64-avx2         x86-64 with avx2 (and sse4.2, fma, lzcnt)"
	@echo "  x86-64-bmi2         x86-64-avx2 with bmi1 and bmi2"
	@echo "  x86-64-avxvnni      x86-64-bmi2 with avx-vnni"
	@echo "  x86-64-avx512       x86-64-bmi2 with avx512f/bw/dq/vl"
	@echo "  x86-64-vnni256      x86-64-avx512 with avx512vnni"
	@echo "  x86-64-vnni512      same as x86-64-vnni256"
	@echo "  x86-64-avx512icl    Ice Lake server (-C target-cpu=icelake-server)"
	@echo "  x86-64-v2           microarchitecture level v2 (-C target-cpu=x86-64-v2)"
	@echo "  x86-64-v3           microarchitecture level v3"
	@echo "  x86-64-v4           microarchitecture level v4"
	@echo ""
	@echo "Supported compilers:"
	@echo "  rustc               $(shell rustc -V 2>/dev/null); COMP=gcc|clang|... is accepted and ignored"
	@echo ""
	@echo "Examples:"
	@echo "  make -j EXE=chuhan-dev                 (what OpenBench runs)"
	@echo "  make -j profile-build ARCH=x86-64-avx2 (what a fishtest worker runs)"
	@echo "  make build ARCH=native && make strip"
