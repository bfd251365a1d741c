/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apple_props - private header
 *
 * Copyright (C) 2026 The macsupport developers
 */
#ifndef APPLE_PROPS_H
#define APPLE_PROPS_H

#include <linux/device.h>
#include <linux/property.h>

/* props_core.c */
extern char *props_test_fail_at;

/* props_sysfs.c */
const struct software_node *props_swnode(struct device *dev);
int props_export_device(struct device *dev);
void props_unexport_device(struct device *dev);
int props_sysfs_init(void);
void props_sysfs_exit(void);
unsigned int props_exported_count(void);

/* props_attach.c */
int props_load_blob(const void *buf, size_t len, const char *source);
void props_attach_new_device(struct device *dev);
void props_attach_device_removed(struct device *dev);
void props_attach_exit(void);

/* props_sources.c */
int props_sources_init(struct kobject *dir);
void props_sources_exit(struct kobject *dir);

#endif /* APPLE_PROPS_H */
