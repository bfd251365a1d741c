# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_APPLE_EFI append apple_fw.set_os=v2,entries
#
# tools/efi/set-os.efi on the fake Apple firmware, mode v2,entries: no load options:
# the app picks the next boot entry. BootNext names a missing loader (the load
# failure must be reported, BootNext deleted), BootOrder after BootCurrent holds
# an inactive entry, the missing loader again, then the kernel (Boot00A1, a
# short-form HD() path with the kernel options as optional data).
# The checks are 85-set-os-path.sh's (see there).

SETOS_MODE=v2,entries
. /etc/macsupport/tests/85-set-os-path.sh
