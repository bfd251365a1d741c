// SPDX-License-Identifier: GPL-2.0
/*
 * Intel Thunderbolt NHIs in Macs (see include/macsupport/tb_ids.h).
 *
 * Copyright (C) 2026 The macsupport developers
 */

#include "macsupport/tb_ids.h"

static const struct {
	u16 device;
	enum mac_tb_gen gen;
} mac_tb_nhis[] = {
	{ 0x1513, MAC_TB_LIGHT_RIDGE },		/* also its bridges */
	{ 0x151a, MAC_TB_EAGLE_RIDGE },
	{ 0x1547, MAC_TB_CACTUS_RIDGE },	/* 4C; also its bridges */
	{ 0x1548, MAC_TB_CACTUS_RIDGE },	/* 2C */
	{ 0x156a, MAC_TB_FALCON_RIDGE },	/* 2C */
	{ 0x156c, MAC_TB_FALCON_RIDGE },	/* 4C */
	{ 0x1575, MAC_TB_ALPINE_RIDGE },	/* 2C */
	{ 0x1577, MAC_TB_ALPINE_RIDGE },	/* 4C */
	{ 0x15bf, MAC_TB_ALPINE_RIDGE },	/* LP */
	{ 0x15d2, MAC_TB_ALPINE_RIDGE },	/* C 4C */
	{ 0x15d9, MAC_TB_ALPINE_RIDGE },	/* C 2C */
	{ 0x15e8, MAC_TB_TITAN_RIDGE },		/* 2C */
	{ 0x15eb, MAC_TB_TITAN_RIDGE },		/* 4C */
};

enum mac_tb_gen mac_tb_nhi_gen(u16 vendor, u16 device, u32 class)
{
	size_t i;

	if (vendor != MAC_TB_VENDOR_INTEL || class != MAC_TB_NHI_CLASS)
		return MAC_TB_NONE;
	for (i = 0; i < ARRAY_SIZE(mac_tb_nhis); i++)
		if (mac_tb_nhis[i].device == device)
			return mac_tb_nhis[i].gen;
	return MAC_TB_NONE;
}

bool mac_tb_gen_has_plug_gpe(enum mac_tb_gen gen)
{
	return gen >= MAC_TB_LIGHT_RIDGE && gen <= MAC_TB_FALCON_RIDGE;
}
