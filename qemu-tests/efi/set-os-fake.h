/* SPDX-License-Identifier: GPL-2.0 */
/*
 * set-os-fake.h - TEST ONLY: Apple's set_os protocol for the fake firmware
 * (see set-os-fake.c)
 */
#ifndef SET_OS_FAKE_H
#define SET_OS_FAKE_H

#include <efi.h>

/* The kernel options @opts ask for the set-os hand-over (apple_fw.set_os=). */
BOOLEAN setos_fake_wanted(const CHAR16 *opts);

/*
 * Install the protocol as asked, record from now on, start the set-os app.
 * Returns only if the app returned (or could not be started).
 */
EFI_STATUS setos_fake_boot(EFI_HANDLE image, EFI_HANDLE device, const CHAR16 *kopts,
			   UINTN kopts_size);

/* Record that apple-fw starts the kernel itself after all. */
void setos_fake_fallback(void);

#endif
