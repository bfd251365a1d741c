// SPDX-License-Identifier: GPL-2.0
/*
 * Apple Mac model identifiers and what each model carries.
 *
 * Pure C: compiled into the kernel modules, the userspace tools and the host
 * unit tests (src/lib/tests/test_mac_model.c). Only the string helpers that
 * both <linux/string.h> and libc's <string.h> provide may be used here.
 */

#include "macsupport/mac_model.h"

/**
 * DOC: Model table
 *
 * One entry per model identifier (the DMI product name, e.g. "MacBookPro10,1")
 * of every Intel Mac, 2006-2020: MacBook, MacBookAir, MacBookPro, MacPro,
 * Macmini, Xserve, iMac and iMacPro. Each entry says which GPUs the model has,
 * its gmux kind, its Thunderbolt controllers (generation and count) and
 * whether it has a T2. Sources: Apple's technical specifications of each
 * model, the in-tree apple-gmux driver's and Linux's Thunderbolt quirks'
 * model lists, checked against real Macs' firmware tables (published ACPI
 * dumps: APP000B devices; Thunderbolt UPSB/NHI0/TRPE per controller).
 * Facts that no source at hand confirms say "unverified".
 *
 * Rules kept by the table (and checked by the host unit tests):
 *
 * - sorted by family (strcmp() order), then major, then minor, numerically;
 * - every family/major/minor appears once;
 * - a real gmux (classic, indexed, T2) exactly on the models with
 *   %MAC_GPU_MUXED, which also have %MAC_GPU_INTEGRATED and %MAC_GPU_DISCRETE;
 * - a model with a T2 has %MAC_GMUX_NONE, %MAC_GMUX_T2 or %MAC_GMUX_FAKE, and
 *   only a model with a T2 has %MAC_GMUX_T2;
 * - @tb_count is 0 exactly when @tb is %MAC_TB_NONE.
 *
 * mac_model_lookup() does a binary search, so the order is load-bearing.
 */

#define MODEL(fam, maj, min, gpu_flags, gmux_kind, tb_gen, tbs, has_t2, name) \
	{ .family = (fam), .major = (maj), .minor = (min), .gpus = (gpu_flags), \
	  .gmux = (gmux_kind), .tb = (tb_gen), .tb_count = (tbs), .t2 = (has_t2), \
	  .desc = (name) }

/* GPU sets of the table, short for its lines. */
#define GPU_I	MAC_GPU_INTEGRATED
#define GPU_D	MAC_GPU_DISCRETE
#define GPU_MUX	(MAC_GPU_INTEGRATED | MAC_GPU_DISCRETE | MAC_GPU_MUXED)

static const struct mac_model_info mac_models[] = {
	/*
	 * MacBook: one integrated GPU, no gmux, no Thunderbolt (the 12-inch
	 * models have a single USB-C port). Whether the 12-inch firmware
	 * declares an APP000B is unverified.
	 */
	MODEL("MacBook", 1, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook (13-inch)"),
	MODEL("MacBook", 2, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook (13-inch, Late 2006 / Mid 2007)"),
	MODEL("MacBook", 3, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook (13-inch, Late 2007)"),
	MODEL("MacBook", 4, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook (13-inch, Early 2008 / Late 2008)"),
	/* GeForce 9400M in the MCP79 chipset: integrated. */
	MODEL("MacBook", 5, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook (13-inch, Aluminum, Late 2008)"),
	MODEL("MacBook", 5, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook (13-inch, Early 2009 / Mid 2009)"),
	MODEL("MacBook", 6, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook (13-inch, Late 2009)"),
	MODEL("MacBook", 7, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook (13-inch, Mid 2010)"),
	MODEL("MacBook", 8, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook (Retina, 12-inch, Early 2015)"),
	MODEL("MacBook", 9, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook (Retina, 12-inch, Early 2016)"),
	MODEL("MacBook", 10, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook (Retina, 12-inch, 2017)"),

	/* MacBook Air: one integrated GPU, no gmux. */
	MODEL("MacBookAir", 1, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook Air"),
	MODEL("MacBookAir", 2, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook Air (Late 2008 / Mid 2009)"),
	MODEL("MacBookAir", 3, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook Air (11-inch, Late 2010)"),
	MODEL("MacBookAir", 3, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook Air (13-inch, Late 2010)"),
	/*
	 * Eagle Ridge: 4,1 checked (I/O registry 0x151a, real DSDT: one
	 * UPSB/NHI0, XRPE/XRIL, no APP000B); 4,2 unverified.
	 */
	MODEL("MacBookAir", 4, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_EAGLE_RIDGE, 1, false,
	      "MacBook Air (11-inch, Mid 2011)"),
	MODEL("MacBookAir", 4, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_EAGLE_RIDGE, 1, false,
	      "MacBook Air (13-inch, Mid 2011)"),
	/*
	 * 2012-2014 Airs: Thunderbolt 1, controller unverified (Cactus Ridge
	 * 2C; the 2013/2014 ones may carry Redwood Ridge, which has no enum
	 * value here).
	 */
	MODEL("MacBookAir", 5, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "MacBook Air (11-inch, Mid 2012)"),
	MODEL("MacBookAir", 5, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "MacBook Air (13-inch, Mid 2012)"),
	MODEL("MacBookAir", 6, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "MacBook Air (11-inch, Mid 2013 / Early 2014)"),
	MODEL("MacBookAir", 6, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "MacBook Air (13-inch, Mid 2013 / Early 2014)"),
	/* Falcon Ridge (TB2): 7,2's TRPE/XRIL/XRIN/SXFP per thunderbolt.md. */
	MODEL("MacBookAir", 7, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1, false,
	      "MacBook Air (11-inch, Early 2015)"),
	MODEL("MacBookAir", 7, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1, false,
	      "MacBook Air (13-inch, Early 2015 / 2017)"),
	/*
	 * T2 Airs, two Thunderbolt 3 ports on one controller: Titan Ridge on
	 * 8,x, the Ice Lake CPU's own on 9,1 (generation and count unverified;
	 * whether their firmware declares an APP000B is unverified too).
	 */
	MODEL("MacBookAir", 8, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 1, true,
	      "MacBook Air (Retina, 13-inch, 2018)"),
	MODEL("MacBookAir", 8, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 1, true,
	      "MacBook Air (Retina, 13-inch, 2019)"),
	MODEL("MacBookAir", 9, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_ICE_LAKE, 1, true,
	      "MacBook Air (Retina, 13-inch, 2020)"),

	/* 2006-2008: a discrete GPU only (Radeon X1600, GeForce 8600M GT). */
	MODEL("MacBookPro", 1, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook Pro (15-inch) / MacBook Pro (15-inch Glossy)"),
	MODEL("MacBookPro", 1, 2, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook Pro (17-inch)"),
	MODEL("MacBookPro", 2, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook Pro (17-inch, Core 2 Duo)"),
	MODEL("MacBookPro", 2, 2, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook Pro (15-inch, Core 2 Duo)"),
	MODEL("MacBookPro", 3, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook Pro (15-inch, 2.4/2.2GHz) / MacBook Pro (17-inch, 2.4GHz)"),
	MODEL("MacBookPro", 4, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook Pro (15-inch / 17-inch, Early 2008)"),

	/*
	 * 2008-2010: classic gmux on the dual-GPU models (GeForce 9400M +
	 * 9600M GT, Arrandale + GT 330M), no Thunderbolt; 5,4/5,5/7,1 have the
	 * integrated GPU only.
	 */
	MODEL("MacBookPro", 5, 1, GPU_MUX, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0, false,
	      "MacBook Pro (15-inch, Late 2008)"),
	MODEL("MacBookPro", 5, 2, GPU_MUX, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0, false,
	      "MacBook Pro (17-inch, Early 2009 / Mid 2009)"),
	MODEL("MacBookPro", 5, 3, GPU_MUX, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0, false,
	      "MacBook Pro (15-inch, Mid 2009)"),
	/*
	 * 5,4: one GPU, but its firmware declares a port I/O APP000B "gmux"
	 * (_STA 0x0B; DarwinDumped MacBookPro5,4 DSDT): fake.
	 */
	MODEL("MacBookPro", 5, 4, GPU_I, MAC_GMUX_FAKE, MAC_TB_NONE, 0, false,
	      "MacBook Pro (15-inch, 2.53GHz, Mid 2009)"),
	MODEL("MacBookPro", 5, 5, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook Pro (13-inch, Mid 2009)"),
	MODEL("MacBookPro", 6, 1, GPU_MUX, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0, false,
	      "MacBook Pro (17-inch, Mid 2010)"),
	MODEL("MacBookPro", 6, 2, GPU_MUX, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0, false,
	      "MacBook Pro (15-inch, Mid 2010)"),
	MODEL("MacBookPro", 7, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "MacBook Pro (13-inch, Mid 2010)"),

	/*
	 * 2011-2012: Light Ridge (the Mid 2012 non-Retina models too). The
	 * 13-inch 8,1 and 9,2 declare an APP000B with no gmux behind it.
	 */
	MODEL("MacBookPro", 8, 1, GPU_I, MAC_GMUX_FAKE, MAC_TB_LIGHT_RIDGE, 1, false,
	      "MacBook Pro (13-inch, Early 2011 / Late 2011)"),
	MODEL("MacBookPro", 8, 2, GPU_MUX, MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1, false,
	      "MacBook Pro (15-inch, Early 2011 / Late 2011)"),
	MODEL("MacBookPro", 8, 3, GPU_MUX, MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1, false,
	      "MacBook Pro (17-inch, Early 2011 / Late 2011)"),
	MODEL("MacBookPro", 9, 1, GPU_MUX, MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1, false,
	      "MacBook Pro (15-inch, Mid 2012)"),
	MODEL("MacBookPro", 9, 2, GPU_I, MAC_GMUX_FAKE, MAC_TB_LIGHT_RIDGE, 1, false,
	      "MacBook Pro (13-inch, Mid 2012)"),

	/* 2012-2013 Retina: indexed gmux, Cactus Ridge. */
	MODEL("MacBookPro", 10, 1, GPU_MUX, MAC_GMUX_INDEXED, MAC_TB_CACTUS_RIDGE, 1, false,
	      "MacBook Pro (Retina, 15-inch, Mid 2012 / Early 2013)"),
	/* 10,2 declares an APP000B without a gmux (DarwinDumped MacBookPro10,2 DSDT). */
	MODEL("MacBookPro", 10, 2, GPU_I, MAC_GMUX_FAKE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "MacBook Pro (Retina, 13-inch, Late 2012 / Early 2013)"),

	/*
	 * 2013-2015: Falcon Ridge (TB2). Apple gives the Iris Pro only 11,2
	 * and 11,4 the names of the dual-GPU 11,3 and 11,5. 11,2 declares an
	 * APP000B with no gmux behind it; whether 11,4 does too is unverified.
	 */
	MODEL("MacBookPro", 11, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1, false,
	      "MacBook Pro (Retina, 13-inch, Late 2013 / Mid 2014)"),
	MODEL("MacBookPro", 11, 2, GPU_I, MAC_GMUX_FAKE, MAC_TB_FALCON_RIDGE, 1, false,
	      "MacBook Pro (Retina, 15-inch, Late 2013 / Mid 2014)"),
	MODEL("MacBookPro", 11, 3, GPU_MUX, MAC_GMUX_INDEXED, MAC_TB_FALCON_RIDGE, 1, false,
	      "MacBook Pro (Retina, 15-inch, Late 2013 / Mid 2014)"),
	MODEL("MacBookPro", 11, 4, GPU_I, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1, false,
	      "MacBook Pro (Retina, 15-inch, Mid 2015)"),
	MODEL("MacBookPro", 11, 5, GPU_MUX, MAC_GMUX_INDEXED, MAC_TB_FALCON_RIDGE, 1, false,
	      "MacBook Pro (Retina, 15-inch, Mid 2015)"),
	MODEL("MacBookPro", 12, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1, false,
	      "MacBook Pro (Retina, 13-inch, Early 2015)"),

	/*
	 * 2016-2017: Alpine Ridge (TB3), two ports per controller. 13,3's real
	 * tables have two controllers (UPSB/NHI0/TRPE under PEG1 and PEG2);
	 * the other four-port models (13,2, 14,2, 14,3) are taken to have two
	 * as well, unverified.
	 */
	MODEL("MacBookPro", 13, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_ALPINE_RIDGE, 1, false,
	      "MacBook Pro (13-inch, 2016, Two Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 13, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_ALPINE_RIDGE, 2, false,
	      "MacBook Pro (13-inch, 2016, Four Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 13, 3, GPU_MUX, MAC_GMUX_INDEXED, MAC_TB_ALPINE_RIDGE, 2, false,
	      "MacBook Pro (15-inch, 2016)"),
	MODEL("MacBookPro", 14, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_ALPINE_RIDGE, 1, false,
	      "MacBook Pro (13-inch, 2017, Two Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 14, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_ALPINE_RIDGE, 2, false,
	      "MacBook Pro (13-inch, 2017, Four Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 14, 3, GPU_MUX, MAC_GMUX_INDEXED, MAC_TB_ALPINE_RIDGE, 2, false,
	      "MacBook Pro (15-inch, 2017)"),

	/*
	 * 2018-2020 T2 Macs: Titan Ridge is documented for the T2 Macs as a
	 * group; the per-model controller is unverified. 15,1's real tables
	 * have two controllers (PEG1, PEG2); the four-port 15,2, 15,3, 16,1
	 * and 16,4 are taken to have two as well (15,2: known), the two-port
	 * 15,4 and 16,3 one. The four-port 13-inch 16,2 uses the Thunderbolt
	 * of its Ice Lake CPU, two host controllers (NHI 8a17 and 8a0d) of
	 * two ports each: count unverified. Whether the single-GPU T2 models
	 * declare an APP000B is unverified. 15,3 is the Radeon Pro Vega
	 * configuration (from late 2018).
	 */
	MODEL("MacBookPro", 15, 1, GPU_MUX, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 2, true,
	      "MacBook Pro (15-inch, 2018 / 2019)"),
	MODEL("MacBookPro", 15, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 2, true,
	      "MacBook Pro (13-inch, 2018 / 2019, Four Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 15, 3, GPU_MUX, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 2, true,
	      "MacBook Pro (15-inch, 2018 / 2019)"),
	MODEL("MacBookPro", 15, 4, GPU_I, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 1, true,
	      "MacBook Pro (13-inch, 2019, Two Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 16, 1, GPU_MUX, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 2, true,
	      "MacBook Pro (16-inch, 2019)"),
	MODEL("MacBookPro", 16, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_ICE_LAKE, 2, true,
	      "MacBook Pro (13-inch, 2020, Four Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 16, 3, GPU_I, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 1, true,
	      "MacBook Pro (13-inch, 2020, Two Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 16, 4, GPU_MUX, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 2, true,
	      "MacBook Pro (16-inch, 2019)"),

	/* Mac Pro: Xeons without an integrated GPU, graphics cards only. */
	MODEL("MacPro", 1, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "Mac Pro"),
	MODEL("MacPro", 2, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "Mac Pro (8-core)"),
	MODEL("MacPro", 3, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "Mac Pro (Early 2008)"),
	MODEL("MacPro", 4, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "Mac Pro (Early 2009)"),
	MODEL("MacPro", 5, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "Mac Pro (Mid 2010 / Mid 2012)"),
	/*
	 * Two FirePro GPUs and an APP000B ("gcon", real DSDT) of undocumented
	 * kind; three Falcon Ridge controllers (real tables: three TRPE).
	 */
	MODEL("MacPro", 6, 1, GPU_D, MAC_GMUX_UNKNOWN, MAC_TB_FALCON_RIDGE, 3, false,
	      "Mac Pro (Late 2013)"),
	/*
	 * Titan Ridge: two on the system (top ports, I/O card), unverified;
	 * the MPX GPU modules carry their own, not counted here.
	 */
	MODEL("MacPro", 7, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 2, true,
	      "Mac Pro (2019) / Mac Pro (Rack, 2019)"),

	MODEL("Macmini", 1, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "Mac mini (Early 2006 / Late 2006)"),
	MODEL("Macmini", 2, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "Mac mini (Mid 2007)"),
	MODEL("Macmini", 3, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "Mac mini (Early 2009 / Late 2009)"),
	MODEL("Macmini", 4, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "Mac mini (Mid 2010) / Mac mini Server (Mid 2010)"),
	/* 5,1 declares an APP000B without a gmux (DarwinDumped MacMini5,1 DSDT). */
	MODEL("Macmini", 5, 1, GPU_I, MAC_GMUX_FAKE, MAC_TB_LIGHT_RIDGE, 1, false,
	      "Mac mini (Mid 2011)"),
	/*
	 * Radeon HD 6630M drives the outputs (that the CPU's HD 3000 drives
	 * none is unverified); the firmware declares an APP000B with no gmux.
	 */
	MODEL("Macmini", 5, 2, GPU_D, MAC_GMUX_FAKE, MAC_TB_LIGHT_RIDGE, 1, false,
	      "Mac mini (Mid 2011)"),
	MODEL("Macmini", 5, 3, GPU_I, MAC_GMUX_NONE, MAC_TB_LIGHT_RIDGE, 1, false,
	      "Mac mini Server (Mid 2011)"),
	/* Cactus Ridge unverified. */
	MODEL("Macmini", 6, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "Mac mini (Late 2012)"),
	/* 6,2 declares an APP000B without a gmux (DarwinDumped MacMini6,2 DSDT). */
	MODEL("Macmini", 6, 2, GPU_I, MAC_GMUX_FAKE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "Mac mini (Late 2012) / Mac mini Server (Late 2012)"),
	MODEL("Macmini", 7, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1, false,
	      "Mac mini (Late 2014)"),
	/* Four Thunderbolt 3 ports: two Titan Ridge controllers, unverified. */
	MODEL("Macmini", 8, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 2, true,
	      "Mac mini (2018)"),

	/* Xserve: Xeons, a discrete GPU (Radeon X1300, GeForce GT 120). */
	MODEL("Xserve", 1, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "Xserve (Late 2006)"),
	MODEL("Xserve", 2, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "Xserve (Early 2008)"),
	MODEL("Xserve", 3, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "Xserve (Early 2009)"),

	/*
	 * iMac: no gmux before the T2 (an integrated GPU that drives no
	 * display next to a discrete one does not count, see enum
	 * mac_gpu_flags).
	 */
	MODEL("iMac", 4, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "iMac (17-inch / 20-inch, Early 2006)"),
	MODEL("iMac", 4, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "iMac (17-inch, Mid 2006)"),
	MODEL("iMac", 5, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "iMac (17-inch / 20-inch, Late 2006)"),
	MODEL("iMac", 5, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "iMac (17-inch, Late 2006 CD)"),
	MODEL("iMac", 6, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "iMac (24-inch, Late 2006)"),
	MODEL("iMac", 7, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "iMac (20-inch / 24-inch, Mid 2007)"),
	MODEL("iMac", 8, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "iMac (20-inch / 24-inch, Early 2008)"),
	/*
	 * 9,1 and 10,1 came with only the integrated GeForce 9400M (base
	 * configurations) and with a discrete GPU under the same identifier;
	 * the table records the discrete configuration.
	 */
	MODEL("iMac", 9, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "iMac (20-inch / 24-inch, Early 2009) / iMac (20-inch, Mid 2009)"),
	MODEL("iMac", 10, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "iMac (21.5-inch / 27-inch, Late 2009)"),
	MODEL("iMac", 11, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "iMac (27-inch, Late 2009)"),
	MODEL("iMac", 11, 2, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "iMac (21.5-inch, Mid 2010)"),
	MODEL("iMac", 11, 3, GPU_D, MAC_GMUX_NONE, MAC_TB_NONE, 0, false,
	      "iMac (27-inch, Mid 2010)"),
	/*
	 * Light Ridge (12,1 checked). The Late 2011 education 12,1 has only
	 * the CPU's HD 3000 (unverified); the table records the discrete one.
	 */
	MODEL("iMac", 12, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_LIGHT_RIDGE, 1, false,
	      "iMac (21.5-inch, Mid 2011 / Late 2011)"),
	MODEL("iMac", 12, 2, GPU_D, MAC_GMUX_NONE, MAC_TB_LIGHT_RIDGE, 1, false,
	      "iMac (27-inch, Mid 2011)"),
	/*
	 * Thunderbolt 1, controller unverified: Cactus Ridge (Late 2012) or
	 * Redwood Ridge (2013-2014), which has no enum value here.
	 */
	MODEL("iMac", 13, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "iMac (21.5-inch, Late 2012)"),
	MODEL("iMac", 13, 2, GPU_D, MAC_GMUX_NONE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "iMac (27-inch, Late 2012)"),
	MODEL("iMac", 13, 3, GPU_I, MAC_GMUX_NONE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "iMac (21.5-inch, Early 2013)"),
	/* Apple names the Iris Pro 14,1 and the GeForce GT 750M 14,3 alike. */
	MODEL("iMac", 14, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "iMac (21.5-inch, Late 2013)"),
	MODEL("iMac", 14, 2, GPU_D, MAC_GMUX_NONE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "iMac (27-inch, Late 2013)"),
	MODEL("iMac", 14, 3, GPU_D, MAC_GMUX_NONE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "iMac (21.5-inch, Late 2013)"),
	MODEL("iMac", 14, 4, GPU_I, MAC_GMUX_NONE, MAC_TB_CACTUS_RIDGE, 1, false,
	      "iMac (21.5-inch, Mid 2014)"),
	/* Falcon Ridge (TB2). */
	MODEL("iMac", 15, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1, false,
	      "iMac (Retina 5K, 27-inch, Late 2014 / Mid 2015)"),
	MODEL("iMac", 16, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1, false,
	      "iMac (21.5-inch, Late 2015)"),
	MODEL("iMac", 16, 2, GPU_I, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1, false,
	      "iMac (Retina 4K, 21.5-inch, Late 2015)"),
	MODEL("iMac", 17, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1, false,
	      "iMac (Retina 5K, 27-inch, Late 2015)"),
	/* Alpine Ridge (18,3: TB3 ACPI names per thunderbolt.md). */
	MODEL("iMac", 18, 1, GPU_I, MAC_GMUX_NONE, MAC_TB_ALPINE_RIDGE, 1, false,
	      "iMac (21.5-inch, 2017)"),
	MODEL("iMac", 18, 2, GPU_D, MAC_GMUX_NONE, MAC_TB_ALPINE_RIDGE, 1, false,
	      "iMac (Retina 4K, 21.5-inch, 2017)"),
	MODEL("iMac", 18, 3, GPU_D, MAC_GMUX_NONE, MAC_TB_ALPINE_RIDGE, 1, false,
	      "iMac (Retina 5K, 27-inch, 2017)"),
	/* Titan Ridge unverified (Alpine Ridge possible). */
	MODEL("iMac", 19, 1, GPU_D, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 1, false,
	      "iMac (Retina 5K, 27-inch, 2019)"),
	MODEL("iMac", 19, 2, GPU_D, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 1, false,
	      "iMac (Retina 4K, 21.5-inch, 2019)"),
	/*
	 * T2 desktops declare an MMIO APP000B; some registers answer (max
	 * brightness reads 0x03ff) but there is no display mux to drive.
	 * Titan Ridge per model unverified.
	 */
	MODEL("iMac", 20, 1, GPU_D, MAC_GMUX_FAKE, MAC_TB_TITAN_RIDGE, 1, true,
	      "iMac (Retina 5K, 27-inch, 2020)"),
	MODEL("iMac", 20, 2, GPU_D, MAC_GMUX_FAKE, MAC_TB_TITAN_RIDGE, 1, true,
	      "iMac (Retina 5K, 27-inch, 2020)"),

	/*
	 * Released in December 2017, before Titan Ridge: four Thunderbolt 3
	 * ports on two Alpine Ridge controllers (unverified). The table said
	 * Titan Ridge, one controller, from the T2 group entry.
	 */
	MODEL("iMacPro", 1, 1, GPU_D, MAC_GMUX_FAKE, MAC_TB_ALPINE_RIDGE, 2, true,
	      "iMac Pro"),
};

#undef GPU_MUX
#undef GPU_D
#undef GPU_I
#undef MODEL

/* Longest decimal field mac_model_parse() accepts, in digits. */
#define MAC_MODEL_NUMBER_DIGITS_MAX 3

static bool mac_model_is_letter(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static bool mac_model_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Parse 1..MAC_MODEL_NUMBER_DIGITS_MAX decimal digits at *@s into @val and
 * advance *@s past them. Leading zeros count as digits ("010" is 10).
 */
static int mac_model_parse_number(const char **s, unsigned int *val)
{
	const char *p = *s;
	unsigned int n = 0;
	unsigned int digits = 0;

	while (mac_model_is_digit(*p)) {
		if (++digits > MAC_MODEL_NUMBER_DIGITS_MAX)
			return -EINVAL;
		n = n * 10 + (unsigned int)(*p - '0');
		p++;
	}
	if (!digits)
		return -EINVAL;

	*s = p;
	*val = n;
	return 0;
}

int mac_model_parse(const char *s, struct mac_model_id *id)
{
	struct mac_model_id tmp;
	size_t len = 0;

	if (!s || !id)
		return -EINVAL;

	memset(&tmp, 0, sizeof(tmp));

	while (mac_model_is_letter(s[len])) {
		if (len >= sizeof(tmp.family) - 1)
			return -EINVAL;
		tmp.family[len] = s[len];
		len++;
	}
	if (!len)
		return -EINVAL;
	s += len;

	if (mac_model_parse_number(&s, &tmp.major))
		return -EINVAL;
	if (*s++ != ',')
		return -EINVAL;
	if (mac_model_parse_number(&s, &tmp.minor))
		return -EINVAL;
	if (*s != '\0')
		return -EINVAL;

	/* @id is written only on success. */
	memcpy(id, &tmp, sizeof(*id));
	return 0;
}

/*
 * strcmp() of a table family with @id's family, which need not be
 * NUL-terminated when the caller filled struct mac_model_id by hand: never
 * read past it. An unterminated @id family sorts after every table family
 * that equals its first sizeof(id->family) characters, and no table family
 * is that long, so such an id matches nothing.
 */
static int mac_model_family_cmp(const char *family, const struct mac_model_id *id)
{
	size_t i;

	for (i = 0; i < sizeof(id->family); i++) {
		unsigned char a = (unsigned char)family[i];
		unsigned char b = (unsigned char)id->family[i];

		if (a != b)
			return a < b ? -1 : 1;
		if (a == '\0')
			return 0;
	}
	return -1;
}

/* Table order: family (strcmp()), then major, then minor. */
static int mac_model_cmp(const struct mac_model_info *m, const struct mac_model_id *id)
{
	int c = mac_model_family_cmp(m->family, id);

	if (c)
		return c;
	if (m->major != id->major)
		return m->major < id->major ? -1 : 1;
	if (m->minor != id->minor)
		return m->minor < id->minor ? -1 : 1;
	return 0;
}

const struct mac_model_info *mac_model_lookup(const struct mac_model_id *id)
{
	size_t lo = 0;
	size_t hi = ARRAY_SIZE(mac_models);

	if (!id)
		return NULL;

	/* Binary search of the sorted table in [lo, hi). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = mac_model_cmp(&mac_models[mid], id);

		if (!c)
			return &mac_models[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static const char * const mac_gmux_kind_names[] = {
	[MAC_GMUX_NONE]		= "none",
	[MAC_GMUX_CLASSIC]	= "classic",
	[MAC_GMUX_INDEXED]	= "indexed",
	[MAC_GMUX_T2]		= "t2",
	[MAC_GMUX_FAKE]		= "fake",
	[MAC_GMUX_UNKNOWN]	= "unknown",
};

const char *mac_gmux_kind_name(enum mac_gmux_kind kind)
{
	unsigned int i = (unsigned int)kind;

	if (i >= ARRAY_SIZE(mac_gmux_kind_names) || !mac_gmux_kind_names[i])
		return "invalid";
	return mac_gmux_kind_names[i];
}

static const char * const mac_tb_gen_names[] = {
	[MAC_TB_NONE]		= "none",
	[MAC_TB_LIGHT_RIDGE]	= "Light Ridge",
	[MAC_TB_EAGLE_RIDGE]	= "Eagle Ridge",
	[MAC_TB_CACTUS_RIDGE]	= "Cactus Ridge",
	[MAC_TB_FALCON_RIDGE]	= "Falcon Ridge",
	[MAC_TB_ALPINE_RIDGE]	= "Alpine Ridge",
	[MAC_TB_TITAN_RIDGE]	= "Titan Ridge",
	[MAC_TB_ICE_LAKE]	= "Ice Lake",
};

const char *mac_tb_gen_name(enum mac_tb_gen gen)
{
	unsigned int i = (unsigned int)gen;

	if (i >= ARRAY_SIZE(mac_tb_gen_names) || !mac_tb_gen_names[i])
		return "invalid";
	return mac_tb_gen_names[i];
}

/* Indexed by the flags; NULL for the combinations that cannot be. */
static const char * const mac_gpus_names[] = {
	[0]					= "none",
	[MAC_GPU_INTEGRATED]			= "integrated",
	[MAC_GPU_DISCRETE]			= "discrete",
	[MAC_GPU_INTEGRATED | MAC_GPU_DISCRETE]	= "integrated+discrete",
	[MAC_GPU_ALL]				= "integrated+discrete, muxed",
};

const char *mac_gpus_name(unsigned int gpus)
{
	if (gpus >= ARRAY_SIZE(mac_gpus_names) || !mac_gpus_names[gpus])
		return "invalid";
	return mac_gpus_names[gpus];
}
