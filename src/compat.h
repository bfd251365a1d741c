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

/* <asm/unaligned.h> moved to <linux/unaligned.h> in 6.12. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* MODULE_IMPORT_NS() takes a string literal since 6.13. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define MACSUPPORT_IMPORT_NS(ns)	MODULE_IMPORT_NS(#ns)
#else
#define MACSUPPORT_IMPORT_NS(ns)	MODULE_IMPORT_NS(ns)
#endif

#endif /* MACSUPPORT_COMPAT_H */
