/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only place in the bundle that knows about differences between kernel
 * versions. Every module is built with this file force-included.
 */
#ifndef MACSUPPORT_COMPAT_H
#define MACSUPPORT_COMPAT_H

#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "macsupport needs Linux 6.1 or newer"
#endif

/*
 * The kernel the bundle is built for, which DKMS makes the running one:
 * mac_quirks compares it with the first kernel that handles a quirk.
 */
#define MACSUPPORT_KERNEL_VERSION	LINUX_VERSION_CODE

/* <asm/unaligned.h> moved to <linux/unaligned.h> in 6.12. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * Whether the EFI variable service (efivars) is registered: 6.1 tells by
 * efivars_kobject(); 6.2 replaced it with efivar_is_available().
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define macsupport_efivars_registered()	efivar_is_available()
#else
#define macsupport_efivars_registered()	(!!efivars_kobject())
#endif

/* MODULE_IMPORT_NS() takes a string literal since 6.13. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define MACSUPPORT_IMPORT_NS(ns)	MODULE_IMPORT_NS(#ns)
#else
#define MACSUPPORT_IMPORT_NS(ns)	MODULE_IMPORT_NS(ns)
#endif

/*
 * The kernel's backlight choice (drivers/acpi/video_detect.c). 6.1 detects
 * only the port I/O gmux: on a T2 Mac it never chooses
 * acpi_backlight_apple_gmux and, without ACPI video or a native backlight,
 * falls back to acpi_backlight_vendor, which Debian 6.1's apple_bl does not
 * check (apple_gmux_ng evicts it). There the gmux is the vendor interface.
 * 6.12 detects all three gmux kinds and leaves acpi_backlight_vendor to
 * apple_bl, which then registers by itself.
 *
 * On "vendor" the choice can still change: a GPU driver that asks for a
 * native backlight later (i915 probing after the gmux) turns it into
 * "native". The gmux then watches with the backlight notifier, which 6.13
 * removed; 6.12 and later never need it, and get stubs that are never
 * reached. The 6.1 macros expand where <linux/backlight.h> is included.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define MACSUPPORT_GMUX_BACKLIGHT_ON_VENDOR	false
#define MACSUPPORT_BACKLIGHT_REGISTERED		0
#include <linux/errno.h>
struct notifier_block;
static inline int macsupport_backlight_register_notifier(struct notifier_block *nb)
{
	return -EOPNOTSUPP;
}

static inline void macsupport_backlight_unregister_notifier(struct notifier_block *nb)
{
}
#else
#define MACSUPPORT_GMUX_BACKLIGHT_ON_VENDOR	true
#define MACSUPPORT_BACKLIGHT_REGISTERED		BACKLIGHT_REGISTERED
#define macsupport_backlight_register_notifier(nb)	backlight_register_notifier(nb)
#define macsupport_backlight_unregister_notifier(nb)	backlight_unregister_notifier(nb)
#endif

/* struct class became const in the class callbacks with 6.4. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define macsupport_class_arg	const struct class
#else
#define macsupport_class_arg	struct class
#endif

/*
 * pm_runtime_get_if_active() (a reference only if the device is active,
 * whatever its usage count) lost its second argument, then true, in 6.9.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
#define macsupport_pm_runtime_get_if_active(dev)	pm_runtime_get_if_active(dev)
#else
#define macsupport_pm_runtime_get_if_active(dev)	pm_runtime_get_if_active(dev, true)
#endif

#endif /* MACSUPPORT_COMPAT_H */
