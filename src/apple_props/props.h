/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apple_props - private header
 *
 * Copyright (C) 2026 The macsupport developers
 *
 * Calls go one way: props_core.c (init, exit, the PCI bus notifier) calls
 * props_sources.c, props_attach.c and props_sysfs.c; props_sources.c
 * calls props_attach.c; props_attach.c calls props_sysfs.c; props_sysfs.c
 * calls nothing. Locks nest in the same order: props_load_lock (sources),
 * pci_lock_rescan_remove(), props_attach_lock (attach), props_lock (sysfs).
 */
#ifndef APPLE_PROPS_H
#define APPLE_PROPS_H

#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/property.h>

/* props_sysfs.c: the apple_properties directories and the "all" listing */
const void *props_value(const struct property_entry *p);
const struct software_node *props_swnode(struct device *dev);
int props_export_device(struct device *dev);
void props_unexport_device(struct device *dev);
void props_unexport_all(void);
unsigned int props_exported_count(void);
int props_sysfs_init(struct kobject *dir);
void props_sysfs_exit(struct kobject *dir);

/* props_attach.c: loaded nodes, attached to devices now and later */
int props_load_blob(const void *buf, size_t len, const char *source);
void props_attach_export_present(void);
void props_attach_device_added(struct device *dev);
void props_attach_device_removed(struct device *dev);
void props_attach_exit(void);

/* props_sources.c: NVRAM, the firmware file, the load file */
int props_sources_init(struct kobject *dir);
void props_sources_exit(struct kobject *dir);

#endif /* APPLE_PROPS_H */
