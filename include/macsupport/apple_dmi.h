/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recognising an Apple Mac by its DMI identity (kernel only).
 *
 * Every module of the bundle acts only on Apple machines. Each one keeps
 * its own copy of the match table, declared with MACSUPPORT_APPLE_DMI_TABLE()
 * and exported with MODULE_DEVICE_TABLE(dmi, ...) where udev should load the
 * module on any Mac.
 */
#ifndef MACSUPPORT_APPLE_DMI_H
#define MACSUPPORT_APPLE_DMI_H

#include <linux/dmi.h>
#include <linux/mod_devicetable.h>
#include <linux/printk.h>

/**
 * MACSUPPORT_APPLE_DMI_TABLE() - define a DMI table matching Apple Macs
 * @name: name of the table
 *
 * Matches the two system vendor strings Apple firmware has used:
 * "Apple Inc." and, on machines before 2007, "Apple Computer, Inc.".
 */
#define MACSUPPORT_APPLE_DMI_TABLE(name)					\
	static const struct dmi_system_id name[] = {				\
		{								\
			.ident = "Apple Inc.",					\
			.matches = {						\
				DMI_EXACT_MATCH(DMI_SYS_VENDOR, "Apple Inc."),	\
			},							\
		},								\
		{								\
			.ident = "Apple Computer, Inc.",			\
			.matches = {						\
				DMI_EXACT_MATCH(DMI_SYS_VENDOR,			\
						"Apple Computer, Inc."),	\
			},							\
		},								\
		{ }								\
	}

/**
 * macsupport_dmi_string() - a DMI string for log messages
 * @field: which one, e.g. DMI_PRODUCT_NAME
 *
 * Return: the string, or "(none)" when the firmware gives none.
 */
static inline const char *macsupport_dmi_string(int field)
{
	const char *s = dmi_get_system_info(field);

	return s && *s ? s : "(none)";
}

/**
 * macsupport_require_apple() - check that this is a Mac, or say why not
 * @table: a table defined with MACSUPPORT_APPLE_DMI_TABLE()
 *
 * Logs one line naming the DMI system vendor when the machine is not an
 * Apple Mac. The caller then stays inert (its init returns -ENODEV).
 *
 * Return: true on an Apple Mac.
 */
static inline bool macsupport_require_apple(const struct dmi_system_id *table)
{
	if (dmi_check_system(table))
		return true;
	pr_info("not an Apple Mac (DMI system vendor \"%s\"), staying inert\n",
		macsupport_dmi_string(DMI_SYS_VENDOR));
	return false;
}

#endif /* MACSUPPORT_APPLE_DMI_H */
