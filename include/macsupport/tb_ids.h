/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intel Thunderbolt controllers found in Macs: which PCI function is the
 * controller's NHI, and what its generation can do for power management.
 * Pure C, shared by tb_macpm, the tools and the host unit tests.
 */
#ifndef MACSUPPORT_TB_IDS_H
#define MACSUPPORT_TB_IDS_H

#include "macsupport/lib_types.h"
#include "macsupport/mac_model.h"

#define MAC_TB_VENDOR_INTEL	0x8086
/* PCI class of every Thunderbolt NHI: system peripheral, other (0x0880). */
#define MAC_TB_NHI_CLASS	0x0880

/**
 * mac_tb_nhi_gen() - the generation of a Thunderbolt NHI
 * @vendor: PCI vendor ID
 * @device: PCI device ID
 * @class: PCI class code shifted right by 8 (0x0880 for an NHI); Light
 *	Ridge and Cactus Ridge use one device ID for their bridges and their
 *	NHI, so the class tells them apart
 *
 * Return: the generation if @vendor:@device with @class is the NHI of an
 * Intel Thunderbolt controller Apple used (Light Ridge to Titan Ridge),
 * %MAC_TB_NONE otherwise (bridges, other devices).
 */
enum mac_tb_gen mac_tb_nhi_gen(u16 vendor, u16 device, u32 class);

/**
 * mac_tb_gen_has_plug_gpe() - whether Apple's firmware gives this
 *	generation a plug interrupt (XRIN) and a plug/power sensor (XRIL)
 * @gen: controller generation
 *
 * Return: true for Thunderbolt 1 and 2 (Light, Eagle, Cactus and Falcon
 * Ridge); Thunderbolt 3 Macs have TRPE only.
 */
bool mac_tb_gen_has_plug_gpe(enum mac_tb_gen gen);

#endif
