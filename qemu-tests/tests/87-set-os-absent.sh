# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_APPLE_EFI append apple_fw.set_os=absent,path
#
# tools/efi/set-os.efi on the fake Apple firmware, mode absent,path: no set_os
# protocol at all (a Mac that does not need it, or not a Mac): the app must say
# so, call nothing and still start \vmlinuz.
# The checks are 85-set-os-path.sh's (see there).

SETOS_MODE=absent,path
. /etc/macsupport/tests/85-set-os-path.sh
