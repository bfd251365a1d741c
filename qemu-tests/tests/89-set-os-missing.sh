# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_APPLE_EFI append apple_fw.set_os=v2,missing
#
# tools/efi/set-os.efi on the fake Apple firmware, mode v2,missing: the path the
# app is given does not exist: it must report the load failure, start nothing
# and return to the firmware (here apple-fw, which then starts the kernel).
# The checks are 85-set-os-path.sh's (see there).

SETOS_MODE=v2,missing
. /etc/macsupport/tests/85-set-os-path.sh
