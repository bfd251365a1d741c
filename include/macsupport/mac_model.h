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
 * @MAC_GMUX_CLASSIC: Lattice XP2, plain port I/O
 * @MAC_GMUX_INDEXED: Renesas H8S/2113 behind an indexed port mailbox
 * @MAC_GMUX_T2: gmux behind the T2, memory-mapped command window
 * @MAC_GMUX_FAKE: the firmware declares APP000B but there is no working gmux
 * @MAC_GMUX_UNKNOWN: present, but the model's kind is not documented
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
 * @gmux: the gmux it carries
 * @tb: its Thunderbolt controller generation
 * @tb_count: how many Thunderbolt controllers it has
 * @desc: marketing name, e.g. "MacBook Pro (Retina, 15-inch, Mid 2012)"
 */
struct mac_model_info {
	const char *family;
	unsigned int major;
	unsigned int minor;
	enum mac_gmux_kind gmux;
	enum mac_tb_gen tb;
	unsigned int tb_count;
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
 * Return: the table entry, or NULL for a model the table does not know.
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

#endif /* MACSUPPORT_MAC_MODEL_H */
