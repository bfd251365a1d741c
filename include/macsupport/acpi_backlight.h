/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's backlight choice by name (kernel only), for the log and for
 * the test helpers that read it.
 */
#ifndef MACSUPPORT_ACPI_BACKLIGHT_H
#define MACSUPPORT_ACPI_BACKLIGHT_H

#include <acpi/video.h>

/**
 * macsupport_backlight_type_name() - name of an acpi_video_get_backlight_type() result
 * @type: the kernel's choice
 *
 * Return: the name acpi_backlight= takes for it ("vendor", "native", ...),
 * or "undef".
 */
static inline const char *macsupport_backlight_type_name(enum acpi_backlight_type type)
{
	switch (type) {
	case acpi_backlight_none:
		return "none";
	case acpi_backlight_video:
		return "video";
	case acpi_backlight_vendor:
		return "vendor";
	case acpi_backlight_native:
		return "native";
	case acpi_backlight_nvidia_wmi_ec:
		return "nvidia_wmi_ec";
	case acpi_backlight_apple_gmux:
		return "apple_gmux";
	default:
		return "undef";
	}
}

#endif /* MACSUPPORT_ACPI_BACKLIGHT_H */
