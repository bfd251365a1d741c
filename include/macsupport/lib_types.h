/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Basic types for the pure C cores in src/lib.
 *
 * The same sources are compiled into the kernel modules, the userspace
 * tools and the host unit tests, so they must not include kernel or libc
 * headers directly. This header picks the right ones.
 */
#ifndef MACSUPPORT_LIB_TYPES_H
#define MACSUPPORT_LIB_TYPES_H

#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/stddef.h>
#include <linux/string.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#endif

#endif /* MACSUPPORT_LIB_TYPES_H */
