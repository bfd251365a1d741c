# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_APPLE_EFI append apple_fw.set_os=v1,shell
#
# tools/efi/set-os.efi on the fake Apple firmware, mode v1,shell: protocol
# Version 1 (only SetOsVersion may be called), load options as the UEFI shell
# passes them (the app's own path first, then "vmlinuz" without a backslash).
# The checks are 85-set-os-path.sh's (see there).

SETOS_MODE=v1,shell
. /etc/macsupport/tests/85-set-os-path.sh
