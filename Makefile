# accessory-agent: the two commands of the README's quick start are
#   make demo   boots the radio lab and shows accessoryd at work
#   make test   runs the unit and host tests, a short fuzzing pass, then side by side the lab
#               scenarios and 3 power cuts, the system tier, and the arm64 tier
# Both install what they need (Debian packages, virtme-ng) and are safe to run again.

SWIFT        ?= swift
BUILD_DIR    := .build/debug
LAB          := Tests/Lab/lab
VIRTME_NG    := virtme-ng==1.42

# Building and the host tests.
BUILD_PACKAGES := pkg-config libsystemd-dev libnl-genl-3-dev libbluetooth-dev dpkg-dev valgrind \
                  dbus systemd python3-dbus python3-gi \
                  libmosquitto-dev mosquitto mosquitto-clients openssl nettle-dev
# The Debian package: debhelper builds it, lintian checks it.
DEB_PACKAGES := debhelper fakeroot lintian
# The lab: Debian's kernel under QEMU with virtual radios, and the real radio daemons.
LAB_PACKAGES := qemu-system-x86 linux-image-amd64 kmod busybox-static udhcpc systemd udev \
                bluez bluez-test-tools hostapd wpasupplicant iw iproute2 dnsmasq tcpdump python3 python3-gi wireless-regdb network-manager polkitd

.PHONY: all build test unit-test app-links-test app-test-kit lab-test power-cut power-cut-test demo bench deb deb-reproducible lint-deb \
        deps build-deps lab-deps deb-deps clean fuzz fuzz-smoke fuzz-build

all: build

## Dependencies: install only what is missing; apt-get update only when something is.
deps: build-deps lab-deps

build-deps:
	@$(call apt_install,$(BUILD_PACKAGES))

lab-deps:
	@$(call apt_install,$(LAB_PACKAGES))
	@command -v vng >/dev/null 2>&1 || python3 -m pip install --quiet --root-user-action=ignore '$(VIRTME_NG)'
	@command -v vng >/dev/null 2>&1 || { echo "virtme-ng installed but vng is not on PATH" >&2; exit 1; }

define apt_install
missing=""; for p in $(1); do \
  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  echo "Installing Debian packages:$$missing"; \
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
fi
endef

## Build.
build: build-deps
	$(SWIFT) build --build-tests

## Tests: Core, codecs and host integration first (fast), a short pass of every
## fuzz target; then the tiers under emulation in lanes side by side: the lab and the
## power cuts; the package installed and booted (the amd64 system tier, as users meet it),
## a lane for each of its two profiles; and arm64 (the cross-built package booted in arm64
## Debian, Tests/System/arm64/). Their emulators mostly wait on their guests' timers and
## radios: one after the other, they left one of the two cores idle for most of an hour,
## and with both system profiles in one lane that lane alone went past make test's hour.
## `make test ARM64_TIER=no` leaves arm64 out; `make test-sequential` runs the amd64 tiers
## one after the other, as before the lanes.
ARM64_TIER ?= yes
test: unit-test fuzz-smoke lab-deps deb-deps system-deps $(if $(filter yes,$(ARM64_TIER)),system-arm64-deps)
	@echo "tiers: in lanes side by side from $$(date -u +%T); each lane's output follows when it ends"
	@LANES_BEGAN=$$(date +%s) $(MAKE) --no-print-directory -k -j5 --output-sync=target lanes ARM64_NICE="nice -n 5" \
	    LANES="lab-lane $(SYSTEM_LANES) $(if $(filter yes,$(ARM64_TIER)),arm64-lane)"

test-sequential: unit-test fuzz-smoke lab-test power-cut-test system-test

SYSTEM_LANES := system-lane-debian system-lane-rpi
LANES ?= lab-lane $(SYSTEM_LANES) arm64-lane
# In make test, arm64's builds and emulated dpkg yield the cores to the lanes' guests and to
# make deb, which the system lanes wait for.
ARM64_NICE ?=
.PHONY: test-sequential lanes lab-lane $(SYSTEM_LANES) arm64-lane
lanes: $(LANES)

# Each lane's last line in make test: when it ended, for the hour make test has.
lane_ended = test -z "$$LANES_BEGAN" || echo "$@: ended $$(( $$(date +%s) - $$LANES_BEGAN )) s after the lanes began"

lab-lane: lab-test
	@$(MAKE) --no-print-directory power-cut-test
	@$(lane_ended)

# A lane per system-tier profile, booting beside the others once the package, the two test
# binaries and the profile's base are there; the three are made side by side (the release
# builds are mostly one module at a time, and debootstrap mostly waits on the archive).
$(SYSTEM_LANES): system-lane-%: system-binaries system-base-%
	Tests/System/system run --profile $* --bin-dir "$(SYSTEM_BIN_DIR)"
	@$(lane_ended)

system-base-%: system-deps
	Tests/System/system base --profile $*

power-cut-test:
	$(MAKE) power-cut CUTS=3

unit-test: build app-links-test
	$(SWIFT) test

## The test kit for app authors (packaging/libexec/accessory-test-kit; README, "Writing an
## app"), from the build tree: a private bus and accessoryd serving it, Bluetooth replayed
## from a capture. APPS=DIR holds the app's manifests; CMD, the app's test command (none:
## wait for Ctrl-C); CAPTURE, another btsnoop file; KIT_ARGS, more options (--approve-all).
CAPTURE ?= packaging/test-kit/lab-sensor.btsnoop
app-test-kit: build
	@test -n "$(APPS)" || { echo "make app-test-kit APPS=DIR [CMD='...'] [KIT_ARGS=--approve-all]" >&2; exit 2; }
	packaging/libexec/accessory-test-kit --accessoryd $(BUILD_DIR)/accessoryd --capture $(CAPTURE) \
		--apps $(APPS) $(KIT_ARGS) $(if $(CMD),-- $(CMD))

## An app built on the client library links no libnl and no radio code (ldd, nm on
## accessory-example), and the same check does find them in accessoryd.
app-links-test: build
	Tests/Links/check-app-links $(BUILD_DIR)

lab-test: build lab-deps
	$(LAB) run --build-dir $(BUILD_DIR)

## Power cuts during grant writes: the lab VM killed (SIGKILL to QEMU) CUTS times while
## grants are approved onto a real ext4 disk, booted again each time; 0 acknowledged grants
## may be lost (Tests/Lab/README.md). make test runs 3; the issue's figure is 100.
CUTS ?= 100
power-cut: build lab-deps
	Tests/Lab/power-cut --cuts $(CUTS) --build-dir $(BUILD_DIR)

## Fuzzing (Tests/Fuzz): libFuzzer over every parser of outside bytes, in a
## sanitized build of its own (.build/fuzz) that the ordinary build never sees.
## `make fuzz` runs each target FUZZ_SECONDS; `make fuzz-smoke`, part of
## `make test`, FUZZ_SMOKE_SECONDS each. FUZZ_TARGETS picks some (default: all).
FUZZ_SECONDS       ?= 180
FUZZ_SMOKE_SECONDS ?= 8
FUZZ_TARGETS       ?=
FUZZ_BIN           := .build/fuzz/release/accessory-fuzz

fuzz-build: build-deps
	ACCESSORY_FUZZ=1 $(SWIFT) build -c release --build-path .build/fuzz --product accessory-fuzz \
	    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing

fuzz: fuzz-build
	Tests/Fuzz/run $(FUZZ_BIN) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-smoke: fuzz-build
	Tests/Fuzz/run $(FUZZ_BIN) $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

## The demo: the lab tells what accessoryd does with the virtual radios.
demo: build lab-deps
	$(LAB) demo --build-dir $(BUILD_DIR)

## Benchmarks: figures for docs/benchmarks.md, never a pass/fail. Home Assistant's
## bluetooth-data-tools comes from PyPI into a venv under .build/bench.
BENCH_PACKAGES := valgrind python3-venv wpasupplicant binutils
bench: build-deps lab-deps
	@$(call apt_install,$(BENCH_PACKAGES))
	SWIFT=$(SWIFT) Tests/Bench/run

## The Debian source and binary packages, under .build/deb/ (packaging/build-package).
deb: build-deps deb-deps
	packaging/build-package

# Apart, so that make test installs it before its lanes: apt-get must not run twice at once.
deb-deps:
	@$(call apt_install,$(DEB_PACKAGES))

## Two builds of the same tree must give byte-identical packages.
deb-reproducible: deb
	cp .build/deb/accessoryd_*_$(shell dpkg --print-architecture).deb .build/deb-first.deb
	packaging/build-package
	cmp .build/deb-first.deb .build/deb/accessoryd_*_$(shell dpkg --print-architecture).deb && echo "reproducible: two builds are byte-identical"

## lintian over what `make deb` built.
lint-deb:
	lintian --pedantic --info --display-experimental --fail-on error,warning .build/deb/accessoryd_*.changes

clean:
	rm -rf .build lab-evidence

## arm64 (Raspberry Pi OS = Debian trixie) from this amd64 machine: a cross build
## in a sid chroot against an arm64 sysroot of Debian's packages, all cached under
## .build/arm64/. packaging/arm64/README.md says why this route, and the figures.
.PHONY: arm64-chroot arm64-sdk arm64-build arm64-check deb-arm64

arm64-chroot:
	@$(call apt_install,debootstrap)
	packaging/arm64/chroot

arm64-sdk: arm64-chroot
	packaging/arm64/run packaging/arm64/sdk

# The release products for aarch64, under .build/arm64/swiftpm/.
arm64-build: arm64-sdk
	packaging/arm64/build accessoryd accessory-decode-check

# The arm64 binary under qemu-aarch64: --version, --probe, and a replay that must
# print the same monitor lines as the amd64 build.
arm64-check: arm64-build
	packaging/arm64/check

# The arm64 .deb through packaging/debian (dpkg-buildpackage -a arm64), under .build/deb/.
deb-arm64: arm64-sdk
	$(ARM64_NICE) packaging/arm64/deb

## The system tier: the .deb installed with apt in a Debian trixie image, booted
## with systemd as PID 1 under QEMU, virtual radios after boot (Tests/System/README.md).
SYSTEM_PACKAGES := debootstrap qemu-system-x86 linux-image-amd64 kmod e2fsprogs \
                   chromium chromium-driver python3-selenium
SYSTEM_BIN_DIR   = $$($(SWIFT) build -c release --static-swift-stdlib --show-bin-path)

.PHONY: system-test system-binaries system-test-binaries system-deps

system-deps:
	@$(call apt_install,$(SYSTEM_PACKAGES))

# The app and the sensor the checks use run in the image, which has no Swift runtime.
system-binaries: deb system-test-binaries

system-test-binaries: build-deps system-deps
	$(SWIFT) build -c release --static-swift-stdlib --product accessory-example
	$(SWIFT) build -c release --static-swift-stdlib --product lab-peripheral

system-test: system-binaries
	Tests/System/system run --bin-dir "$(SYSTEM_BIN_DIR)"

## The arm64 system tier (Tests/System/arm64/): the cross-built arm64 .deb installed with apt
## in a Debian trixie arm64 root (mmdebstrap, its maintainer scripts under qemu-user via
## binfmt_misc, cached in .build/system-arm64/), booted with systemd as PID 1 under
## qemu-system-aarch64 -M virt; every capture's replay compared with the amd64 build's;
## accessoryd-cockpit (make deb) installed beside it; the same .deb installed with apt in a
## bookworm arm64 root and run there under qemu-user.
SYSTEM_ARM64_PACKAGES := debootstrap mmdebstrap arch-test qemu-system-arm qemu-user-static cpio e2fsprogs xz-utils kmod
ARM64_DEB = .build/deb/accessoryd_$$(dpkg-parsechangelog -l packaging/debian/changelog -S Version)_arm64.deb
ARM64_BIN_DIR = $$(packaging/arm64/run sh -euc '. packaging/arm64/swift-env; swift build $$SWIFT_BUILD_FLAGS --scratch-path "$$ARM64_SCRATCH" -c release --static-swift-stdlib --show-bin-path')

.PHONY: system-test-arm64 system-arm64-deps system-arm64-prepare system-arm64-cross \
        system-arm64-run system-arm64-bookworm system-bookworm-amd64

system-arm64-deps:
	@$(call apt_install,$(SYSTEM_ARM64_PACKAGES))

# The whole tier by hand: make test's arm64 lane (below), its parts side by side.
system-test-arm64:
	@$(MAKE) --no-print-directory -j4 --output-sync=target arm64-lane

# Everything before the boot, side by side: the roots (mostly emulated dpkg) and the cross build.
system-arm64-prepare:
	@$(MAKE) --no-print-directory -j3 --output-sync=target arm64-bases-bookworm system-arm64-cross

# The .deb, the arm64 app and sensor.
system-arm64-cross: deb-arm64
	$(ARM64_NICE) packaging/arm64/build accessory-example lab-peripheral accessory-decode-check

# The image, the boot.
system-arm64-run:
	$(SWIFT) build --product accessoryd
	Tests/System/arm64/system-arm64 run --deb $(ARM64_DEB) --bin-dir "$(ARM64_BIN_DIR)" --amd64 $(BUILD_DIR)/accessoryd

# The arm64 package in the bookworm arm64 root, under qemu-user.
system-arm64-bookworm:
	$(SWIFT) build --product accessoryd
	Tests/System/arm64/system-arm64 bookworm --deb $(ARM64_DEB) --amd64 $(BUILD_DIR)/accessoryd

# The amd64 package installed with apt in a bookworm amd64 root (no boot, no emulation):
# --version, --probe and every replay there, as the arm64 package's bookworm check does.
system-bookworm-amd64: deb
	$(SWIFT) build --product accessoryd
	Tests/System/arm64/system-arm64 bookworm --deb .build/deb/accessoryd_$$(dpkg-parsechangelog -l packaging/debian/changelog -S Version)_amd64.deb --amd64 $(BUILD_DIR)/accessoryd

# make test's arm64 lane, in parts that make runs side by side (`test` runs the lanes with -j5):
# the trixie root (the boot's) beside the cross build; once both are there and the system
# lanes' `make deb` has made accessoryd-cockpit (the cockpit-install check), the image and the
# boot, while the bookworm roots are made, then the packages in those; the fuzz corpus decoded
# by the arm64 build against amd64 (packaging/arm64/decode-check) once the cross build is there.
.PHONY: arm64-base-trixie arm64-bases-bookworm arm64-boot arm64-bookworm arm64-decode-check
arm64-lane: arm64-boot arm64-bookworm arm64-decode-check
	@$(lane_ended)

arm64-base-trixie: system-arm64-deps
	$(ARM64_NICE) Tests/System/arm64/system-arm64 base trixie

# After the trixie root, which is on the lane's longest path: made beside the boot.
arm64-bases-bookworm: arm64-base-trixie
	$(ARM64_NICE) Tests/System/arm64/system-arm64 base bookworm
	$(ARM64_NICE) Tests/System/arm64/system-arm64 base bookworm --arch amd64

arm64-boot: arm64-base-trixie system-arm64-cross deb
	$(MAKE) --no-print-directory system-arm64-run

arm64-bookworm: arm64-bases-bookworm system-arm64-cross deb
	Tests/System/arm64/system-arm64 bookworm --deb $(ARM64_DEB) --amd64 $(BUILD_DIR)/accessoryd
	Tests/System/arm64/system-arm64 bookworm --deb .build/deb/accessoryd_$$(dpkg-parsechangelog -l packaging/debian/changelog -S Version)_amd64.deb --amd64 $(BUILD_DIR)/accessoryd

arm64-decode-check: system-arm64-cross
	SWIFT="$(SWIFT)" packaging/arm64/decode-check "$(ARM64_BIN_DIR)"
