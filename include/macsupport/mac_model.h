/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Apple Mac model identifiers and what each model carries.
 *
 * Pure C (src/lib/mac_model.c), shared by the modules, the tools and the
 * host unit tests.
 */
#ifndef MACSUPPORT_MAC_MODEL_H
#define MACSUPPORT_MAC_MODEL_H

#include "lib_types.h"

/**
 * enum mac_gmux_kind - which gmux a model carries
 * @MAC_GMUX_NONE: no gmux and no APP000B device
 * @MAC_GMUX_CLASSIC: Lattice XP2, plain port I/O (a real gmux: dual GPU, muxed)
 * @MAC_GMUX_INDEXED: Renesas H8S/2113 behind an indexed port mailbox (a real
 *	gmux: dual GPU, muxed)
 * @MAC_GMUX_T2: gmux behind the T2, memory-mapped command window (a real
 *	gmux: dual GPU, muxed)
 * @MAC_GMUX_FAKE: the firmware declares APP000B but there is no working gmux
 *	behind it
 * @MAC_GMUX_UNKNOWN: APP000B present, but the model's kind is not documented
 */
enum mac_gmux_kind {
	MAC_GMUX_NONE,
	MAC_GMUX_CLASSIC,
	MAC_GMUX_INDEXED,
	MAC_GMUX_T2,
	MAC_GMUX_FAKE,
	MAC_GMUX_UNKNOWN,
};

/**
 * enum mac_tb_gen - Thunderbolt controller generation of a model
 * @MAC_TB_NONE: no Thunderbolt
 * @MAC_TB_LIGHT_RIDGE: TB1, XRPE/XRIL/XRIN
 * @MAC_TB_EAGLE_RIDGE: TB1 two-channel
 * @MAC_TB_CACTUS_RIDGE: TB1 second generation
 * @MAC_TB_FALCON_RIDGE: TB2
 * @MAC_TB_ALPINE_RIDGE: TB3
 * @MAC_TB_TITAN_RIDGE: TB3 on T2 Macs
 * @MAC_TB_ICE_LAKE: integrated in the CPU
 */
enum mac_tb_gen {
	MAC_TB_NONE,
	MAC_TB_LIGHT_RIDGE,
	MAC_TB_EAGLE_RIDGE,
	MAC_TB_CACTUS_RIDGE,
	MAC_TB_FALCON_RIDGE,
	MAC_TB_ALPINE_RIDGE,
	MAC_TB_TITAN_RIDGE,
	MAC_TB_ICE_LAKE,
};

/**
 * enum mac_gpu_flags - the GPUs of a model, OR-ed into &mac_model_info.gpus
 * @MAC_GPU_INTEGRATED: an integrated GPU (in the CPU or the chipset) that
 *	drives a display; one only used headless (e.g. for video encoding
 *	on an iMac with a discrete GPU) does not count
 * @MAC_GPU_DISCRETE: at least one discrete GPU (two on MacPro6,1)
 * @MAC_GPU_MUXED: the built-in display can be switched between the
 *	integrated and the discrete GPU; implies both other flags
 *
 * Where one model identifier was sold with and without a discrete GPU, the
 * table records the configuration with the discrete GPU and says so in a
 * comment.
 */
enum mac_gpu_flags {
	MAC_GPU_INTEGRATED	= 1U << 0,
	MAC_GPU_DISCRETE	= 1U << 1,
	MAC_GPU_MUXED		= 1U << 2,
};

/**
 * define MAC_GPU_ALL - every bit of &enum mac_gpu_flags
 */
#define MAC_GPU_ALL	(MAC_GPU_INTEGRATED | MAC_GPU_DISCRETE | MAC_GPU_MUXED)

#define MAC_MODEL_FAMILY_MAX 24

/**
 * struct mac_model_id - a parsed model identifier such as "MacBookPro10,1"
 * @family: the letters before the numbers, NUL-terminated ("MacBookPro")
 * @major: the number before the comma (10)
 * @minor: the number after the comma (1)
 */
struct mac_model_id {
	char family[MAC_MODEL_FAMILY_MAX];
	unsigned int major;
	unsigned int minor;
};

/**
 * struct mac_model_info - what the bundle knows about one model
 * @family: model family, e.g. "MacBookPro"
 * @major: major number
 * @minor: minor number
 * @gpus: its GPUs, an OR of &enum mac_gpu_flags
 * @gmux: the gmux it carries
 * @tb: its Thunderbolt controller generation
 * @tb_count: how many Thunderbolt controllers (host routers) it has; 0
 *	exactly when @tb is %MAC_TB_NONE
 * @t2: it has an Apple T2 security chip (the 2017-2020 models)
 * @desc: marketing name as Apple's "identify your model" pages give it,
 *	e.g. "MacBook Pro (Retina, 15-inch, Mid 2012 / Early 2013)"; where
 *	one identifier covers several releases their names are joined by " / "
 */
struct mac_model_info {
	const char *family;
	unsigned int major;
	unsigned int minor;
	unsigned int gpus;
	enum mac_gmux_kind gmux;
	enum mac_tb_gen tb;
	unsigned int tb_count;
	bool t2;
	const char *desc;
};

/**
 * mac_model_parse() - parse an Apple model identifier
 * @s: the string, e.g. the DMI product name "MacBookPro10,1"
 * @id: result
 *
 * Accepts letters followed by "<major>,<minor>" with decimal numbers of at
 * most three digits and nothing after them.
 *
 * Return: 0 on success, -EINVAL if @s is not a model identifier.
 */
int mac_model_parse(const char *s, struct mac_model_id *id);

/**
 * mac_model_lookup() - find a parsed model in the bundle's model table
 * @id: a model parsed by mac_model_parse()
 *
 * The table holds every Intel Mac model identifier (2006-2020) of the
 * MacBook, MacBookAir, MacBookPro, MacPro, Macmini, Xserve, iMac and iMacPro
 * families; Apple silicon Macs are not in it.
 *
 * Return: the table entry, or NULL for a model the table does not know
 * (callers report that as an unknown model, never as an error).
 */
const struct mac_model_info *mac_model_lookup(const struct mac_model_id *id);

/**
 * mac_gmux_kind_name() - short lowercase name of a gmux kind
 * @kind: the kind
 *
 * Return: "none", "classic", "indexed", "t2", "fake" or "unknown".
 */
const char *mac_gmux_kind_name(enum mac_gmux_kind kind);

/**
 * mac_tb_gen_name() - name of a Thunderbolt generation
 * @gen: the generation
 *
 * Return: e.g. "Light Ridge", or "none".
 */
const char *mac_tb_gen_name(enum mac_tb_gen gen);

/**
 * mac_gpus_name() - short description of a set of GPU flags
 * @gpus: an OR of &enum mac_gpu_flags, e.g. &mac_model_info.gpus
 *
 * Return: "none", "integrated", "discrete", "integrated+discrete" or
 * "integrated+discrete, muxed"; "invalid" for unknown bits or for
 * %MAC_GPU_MUXED without both GPUs.
 */
const char *mac_gpus_name(unsigned int gpus);

#endif /* MACSUPPORT_MAC_MODEL_H */
