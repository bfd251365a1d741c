# SPDX-License-Identifier: GPL-2.0
#
# macsupport: Apple Mac support modules for distribution kernels.
#
#   make                 build the four modules against KDIR
#   make check           install test dependencies, build, run every test
#   make check-debug     the guest tests on a debug kernel (KASAN, lockdep,
#                        kmemleak, failslab) built from linux-source-6.1;
#                        slow, not for CI (qemu-tests/debug-kernel/)
#   make demo            boot an emulated MacBookPro11,3 and show the bundle at work
#   make demo SHELL_GUEST=1   ... and give an interactive guest shell
#   make bench           benchmarks inside emulated Macs
#   make style           checkpatch --strict (from Debian's linux-source),
#                        W=1 and sparse builds, shell syntax (scripts/style)
#   make docs            Documentation/design/ through the kernel's kernel-doc
#   make models          Documentation/admin-guide/models.rst from the model table
#   make dkms-install    copy the sources to /usr/src and install with DKMS
#   make deb             the Debian packages (debian/) in build/deb/, and lintian
#   make check-image     the packages installed in a Debian 12 image booted as an
#                        emulated Mac: DKMS build, autoload, purge (as root;
#                        slow, not for CI: qemu-tests/image/)
#   make clean
#
# KDIR defaults to the build tree of the newest installed Debian -amd64
# kernel that has headers, never to the running kernel (whose headers may
# not be installed at all). Override with make KDIR=/lib/modules/X/build.
# Modules built here are never loaded into this machine's kernel: they run
# only inside QEMU guests (qemu-tests/).

TOP := $(CURDIR)
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' $(TOP)/dkms.conf)

# Both are expanded only when used, so that "make check" sees the kernel
# that its own dependency step has just installed.
ifeq ($(origin KDIR),undefined)
KVER ?= $(shell ls -d /lib/modules/*-amd64/build 2>/dev/null | \
	  sed -e 's|^/lib/modules/||' -e 's|/build$$||' | sort -V | tail -n 1)
KDIR = /lib/modules/$(KVER)/build
else
KVER ?= $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)
endif

MODULES := apple_gmux_ng apple_props tb_macpm mac_quirks
DKMS_FILES := dkms.conf Kbuild Makefile LICENSE README.md include src

.PHONY: all modules clean check-deps check check-kernels check-debug check-image demo bench deps dkms-install dkms-remove unit fuzz deb style models docs

all: modules

modules:
	@test -d "$(KDIR)" || { echo "no kernel build tree at KDIR=$(KDIR);" \
		"install linux-headers-amd64 or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) modules

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(TOP) clean; fi
	$(MAKE) -C src/lib/tests clean
	$(MAKE) -C qemu-tests/sim clean
	$(MAKE) -C qemu-tests/guest clean
	$(MAKE) -C tools clean
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(TOP)/qemu-tests/helpers clean; fi
	rm -rf qemu-tests/out qemu-tests/out-image qemu-tests/out-debug qemu-tests/out-6.* qemu-tests/*.log build/deb

# Install the Debian packages the tests need (as root), then run everything.
deps:
	qemu-tests/deps

# Every supported kernel (qemu-tests/kernels: 6.1 and 6.12, fetched into
# /var/cache/macsupport/kernels when not installed); on 6.12 a subset of the
# guest tests (qemu-tests/check). check-kernels: every guest test on every
# kernel.
# make check's packages, those of make deb included, in one apt-get call
check-deps:
	qemu-tests/deps --check

check: check-deps
	$(MAKE) -j$$(nproc) modules
	qemu-tests/check

check-kernels: check-deps
	$(MAKE) -j$$(nproc) modules
	qemu-tests/check --full

# The debug kernel is built once per source version and config, cached in
# /var/cache/macsupport/debug-kernel; the bundle is built against it in a
# copy of the tree, qemu-tests/out-debug/tree. PROFILES=... to run fewer.
check-debug:
	qemu-tests/deps --debug
	qemu-tests/debug-kernel/check $(PROFILES)

# The base image (debootstrap) is cached in /var/cache/macsupport/image,
# keyed by qemu-tests/image/packages and build-base.
check-image: deps
	$(MAKE) deb
	qemu-tests/deps --image
	qemu-tests/image/check-image

demo: deps
	$(MAKE) -j$$(nproc) modules
	KDIR=$(KDIR) KVER=$(KVER) qemu-tests/demo $(if $(SHELL_GUEST),--shell)

# Benchmarks in emulated Macs (register accesses, time per operation).
bench: deps
	$(MAKE) -j$$(nproc) modules
	$(MAKE) -s -C src/lib/tests bench
	KDIR=$(KDIR) KVER=$(KVER) qemu-tests/bench/run

unit:
	$(MAKE) -C src/lib/tests run

# Documentation/admin-guide/models.rst from the model table (checked by unit).
models:
	$(MAKE) -C src/lib/tests models

# The kernel's style checks: checkpatch.pl --strict from linux-source-6.1
# (or KSRC=<kernel tree>), then W=1 and sparse builds (scripts/style).
style:
	KDIR=$(KDIR) KVER=$(KVER) scripts/style

# Documentation/design/ expanded with the kernel's scripts/kernel-doc into
# qemu-tests/out/docs/; fails on a missing DOC block (scripts/docs).
docs:
	scripts/docs

# The apple_props parser, then the ACPI table reader of macsupport-report
# --firmware, under libFuzzer, ASan and UBSan (FUZZ_SECONDS each, default 60).
fuzz:
	$(MAKE) -C src/lib/tests fuzz

dkms-install:
	rm -rf $(DESTDIR)/usr/src/macsupport-$(VERSION)
	mkdir -p $(DESTDIR)/usr/src/macsupport-$(VERSION)
	cp -r $(DKMS_FILES) $(DESTDIR)/usr/src/macsupport-$(VERSION)/
	rm -rf $(DESTDIR)/usr/src/macsupport-$(VERSION)/src/lib/tests
	$(MAKE) -C tools install-conf
	dkms add macsupport/$(VERSION)
	dkms build macsupport/$(VERSION) -k $(KVER)
	dkms install macsupport/$(VERSION) -k $(KVER)

dkms-remove:
	dkms remove macsupport/$(VERSION) --all
	rm -rf $(DESTDIR)/usr/src/macsupport-$(VERSION)
	$(MAKE) -C tools uninstall-conf

# The Debian packages macsupport-dkms and macsupport-tools (debian/):
# dpkg-buildpackage in a temporary copy of the tree's files (tracked, and
# new ones git does not ignore), so that the checkout stays as it is; the
# .debs, the source package, .buildinfo and .changes go to build/deb/
# (build/ ignores itself), then lintian fails on any error or warning.
DEB_OUT := build/deb

deb:
	qemu-tests/deps --deb
	@git -C $(TOP) rev-parse --git-dir > /dev/null 2>&1 || \
		{ echo "make deb: needs a git checkout (it packages the files git knows)" >&2; exit 1; }
	rm -rf $(DEB_OUT)
	mkdir -p $(DEB_OUT)
	echo '*' > build/.gitignore
	set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	src=$$tmp/macsupport-$(VERSION); mkdir "$$src"; \
	git ls-files -z -c -o --exclude-standard | \
		xargs -0 sh -c 'for f; do if [ -e "$$f" ] || [ -L "$$f" ]; then printf "%s\0" "$$f"; fi; done' sh | \
		tar --null -T - -cf - | tar -C "$$src" -xf -; \
	(cd "$$src" && dpkg-buildpackage -us -uc); \
	find "$$tmp" -maxdepth 1 -type f -exec cp -t $(DEB_OUT) {} +
	@echo "make deb: packages in $(DEB_OUT):"; ls -1 $(DEB_OUT)
	lintian --fail-on error,warning --display-info --pedantic $(DEB_OUT)/*.changes
