/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The firmware check: what a Mac's ACPI tables declare that the bundle
 * relies on, compared with the model and quirk tables (src/lib/mac_fw.c).
 *
 * Copyright (C) 2026 The macsupport developers
 */
#ifndef MACSUPPORT_MAC_FW_H
#define MACSUPPORT_MAC_FW_H

#include "macsupport/lib_types.h"
#include "macsupport/aml_gpe.h"
#include "macsupport/mac_model.h"

/* "\_SB_.PCI0.RP05.UPSB.DSB0.NHI0": 5 characters a segment, '\', NUL */
#define MAC_FW_PATH_LEN		(AML_GPE_MAX_DEPTH * 5 + 2)
#define MAC_FW_MAX_TABLES	64
#define MAC_FW_MAX_OBJS		4096	/* MacPro7,1's tables: 787 */
#define MAC_FW_MAX_TB		8
#define MAC_FW_MAX_CHECKS	12
#define MAC_FW_MAX_DIFFS	16
#define MAC_FW_LINE		256

/**
 * enum mac_fw_res - what the gmux's _CRS declares
 * @MAC_FW_RES_NONE: no _CRS, or one without an I/O or memory range
 * @MAC_FW_RES_IO: an I/O port range (classic or indexed gmux: only the
 *	hardware's answer to the probe tells them apart)
 * @MAC_FW_RES_MMIO: a memory range (the T2 gmux's command window)
 */
enum mac_fw_res {
	MAC_FW_RES_NONE,
	MAC_FW_RES_IO,
	MAC_FW_RES_MMIO,
};

/**
 * struct mac_fw_gmux - the APP000B device of the tables
 * @count: how many devices have _HID APP000B (0: none)
 * @path: the first one's path
 * @cid: its _CID when a string ("gmux", "gpuc", "gcon"), else ""
 * @res: what its _CRS declares
 * @base: the range's start
 * @len: its length in bytes
 * @crs_method: its _CRS is a method (read from the first buffer in it)
 * @gpe: its GPE, from GMGP or else from _PRW; -1 if neither says
 * @gpe_from: "GMGP" or "_PRW"
 */
struct mac_fw_gmux {
	unsigned int count;
	char path[MAC_FW_PATH_LEN];
	char cid[8];
	enum mac_fw_res res;
	u32 base, len;
	bool crs_method;
	int gpe;
	const char *gpe_from;
};

/**
 * struct mac_fw_tb - a Thunderbolt controller: a device with XRPE or TRPE
 * @nhi: the NHI's path
 * @rp: the root port above it (three segments up: UPSB, DSB0, NHI)
 * @xrpe: the NHI has XRPE (Thunderbolt 1, 2011/2012)
 * @trpe: it has TRPE (2013 on)
 * @xril: it has XRIL (the power getter of Thunderbolt 1 and 2)
 * @sxfp: it has SXFP
 * @sxio_sxlv: it has SXIO and SXLV (Cactus Ridge's sleep sequence)
 * @rtpc: it has RTPC (Thunderbolt 3's power vote)
 * @rtpc_writes: RTPC's body names RTBT, the root port's flag its _PS3
 *	reads (MacPro7,1's RTPC is a stub that does not)
 * @rp_ps3: the root port has _PS3
 * @has_xrin: XRIN is an integer
 * @xrin: its value, the plug GPE of Thunderbolt 1 and 2
 * @nplug: GPE methods in the root port's own Scope (\_GPE), -1 if an SSDT
 *	could not be walked
 * @plug: the first of them (the plug GPE of Thunderbolt 3)
 * @kind: what the methods make it: e.g. "Thunderbolt 1 (Light or Eagle Ridge)"
 * @mechanism: what tb_macpm would switch it with, or NULL
 * @stay_on: why tb_macpm would leave it powered, or NULL
 * @gens: the &enum mac_tb_gen values the methods fit, one bit each
 */
struct mac_fw_tb {
	char nhi[MAC_FW_PATH_LEN];
	char rp[MAC_FW_PATH_LEN];
	bool xrpe, trpe, xril, sxfp, sxio_sxlv, rtpc, rtpc_writes, rp_ps3;
	bool has_xrin;
	u32 xrin;
	int nplug;
	struct aml_gpe_method plug;
	const char *kind;
	const char *mechanism;
	const char *stay_on;
	unsigned int gens;
};

/**
 * struct mac_fw_check - one thing the quirk table names, as the tables have it
 * @quirk: the quirk's name ("gpe_storm", "wake_sources", ...)
 * @what: what it names ("GPE 0x06", "\_SB.PCI0.XHC1")
 * @found: what the tables declare for it
 * @ok: the tables have it
 */
struct mac_fw_check {
	const char *quirk;
	char what[MAC_FW_PATH_LEN];
	char found[MAC_FW_LINE];
	bool ok;
};

/**
 * struct mac_fw_obj - a named object the walk recorded (internal to mac_fw.c)
 * @seg: its absolute path, @depth segments of 4 characters
 * @depth: the number of segments
 * @type: its &enum aml_obj_type
 * @data: its data as the walk handed it over (in a table of &struct mac_fw)
 * @len: bytes at @data
 *
 * Only devices and the names the check reads (XRPE, _HID, _PRW, ...) are
 * recorded, at most MAC_FW_MAX_OBJS over all tables.
 */
struct mac_fw_obj {
	char seg[AML_GPE_MAX_DEPTH][4];
	u8 depth;
	u8 type;	/* enum aml_obj_type */
	const u8 *data;
	size_t len;
};

/**
 * struct mac_fw - a set of tables and what they declare
 * @ntables: tables added and walked
 * @tables: them, as given to mac_fw_add_table() (kept by the caller)
 * @table_len: their lengths
 * @objs_more: during mac_fw_add_table(): the data of the first named object
 *	of interest past MAC_FW_MAX_OBJS (its table is then refused), or NULL
 * @gpe_method: GPEs with a method \_GPE._Lxx or _Exx, one bit each
 * @gpe_prw: GPEs some _PRW names, one bit each
 * @gmux: the gmux
 * @ntb: Thunderbolt controllers found
 * @tb_more: more than MAC_FW_MAX_TB
 * @tb: them
 * @nchecks: things of the quirk table checked
 * @checks: them
 * @model: the model compared with (NULL: unknown, the firmware alone)
 * @ndiffs: differences from the model or quirk table
 * @diffs: one line each, for a bug report
 * @nobjs: named objects recorded
 * @objs: them
 */
struct mac_fw {
	unsigned int ntables;
	const u8 *tables[MAC_FW_MAX_TABLES];
	size_t table_len[MAC_FW_MAX_TABLES];
	const u8 *objs_more;
	u8 gpe_method[32];
	u8 gpe_prw[32];

	struct mac_fw_gmux gmux;
	unsigned int ntb;
	bool tb_more;
	struct mac_fw_tb tb[MAC_FW_MAX_TB];
	unsigned int nchecks;
	struct mac_fw_check checks[MAC_FW_MAX_CHECKS];
	const struct mac_model_info *model;
	unsigned int ndiffs;
	char diffs[MAC_FW_MAX_DIFFS][MAC_FW_LINE];

	unsigned int nobjs;
	struct mac_fw_obj objs[MAC_FW_MAX_OBJS];
};

/**
 * struct mac_fw_error - why a table was refused
 * @msg: what is wrong, one line of mac_fw_add_table()'s fixed texts
 *	("truncated: its header's Length is beyond the end of the file",
 *	"bad checksum: its bytes do not sum to 0")
 * @offset: where, in the table (the AML's offset plus the header's 36)
 */
struct mac_fw_error {
	char msg[MAC_FW_LINE];
	size_t offset;
};

/**
 * mac_fw_init() - start an empty set of tables
 * @fw: the set (large: about 400 KB; allocate it)
 */
void mac_fw_init(struct mac_fw *fw);

/**
 * mac_fw_add_table() - check a table and walk its AML
 * @fw: the set
 * @table: the whole table, header first (the caller keeps it until
 *	mac_fw_finish() is done)
 * @len: bytes at @table (a file's size)
 * @err: why it was refused
 *
 * Refused: a header cut short, a Length field shorter than the header or
 * longer than @len, bytes after the table (a file must hold one table), a
 * bad checksum, a signature other than DSDT or SSDT, AML the walk of
 * aml_walk_objects() cannot follow (the offset where it stopped), more
 * than MAC_FW_MAX_TABLES tables, a table that would take the named objects
 * recorded past MAC_FW_MAX_OBJS (the offset of the first one left out: the
 * check would miss what it declares). A refused table adds nothing.
 *
 * Return: 0, or -EINVAL with @err filled in.
 */
int mac_fw_add_table(struct mac_fw *fw, const u8 *table, size_t len, struct mac_fw_error *err);

/**
 * mac_fw_finish() - what the tables declare, against the bundle's tables
 * @fw: the set, every table added
 * @model: the model table's row for the machine, or NULL for a model it
 *	does not know (the firmware is then described, not compared)
 * @product: the model identifier, for the quirk table's rows (may be NULL)
 *
 * Fills @fw->gmux, @fw->tb, @fw->checks and @fw->diffs: each difference one
 * line that names the model, what the model or quirk table says and what
 * the firmware declares.
 */
void mac_fw_finish(struct mac_fw *fw, const struct mac_model_info *model, const char *product);

/**
 * mac_fw_res_name() - "none", "io" or "mmio"
 * @res: what a _CRS declares
 *
 * Return: the name.
 */
const char *mac_fw_res_name(enum mac_fw_res res);

#endif /* MACSUPPORT_MAC_FW_H */
