// SPDX-License-Identifier: GPL-2.0
/*
 * The firmware check: what a Mac's ACPI tables declare that the bundle
 * relies on, compared with the model and quirk tables.
 *
 * Copyright (C) 2026 The macsupport developers
 */

#include "macsupport/mac_fw.h"
#include "macsupport/mac_quirks.h"

/**
 * DOC: Firmware check
 *
 * macsupport-report --firmware reads a Mac's DSDT and SSDTs (the machine's
 * own, or a dump folder's) with the AML walk of src/lib/aml_gpe.c
 * (aml_walk_objects()), which hands over every scope, device, method and
 * name with its absolute path, and interprets nothing: the check reads
 * constants, buffers and packages only, never runs a method.
 *
 * - The gmux: the device whose _HID is APP000B (EisaId or string), its
 *   _CID, and the first I/O or memory range of its _CRS (a Name holding a
 *   ResourceTemplate; where _CRS is a method, the first buffer in its body
 *   that parses as a resource template). An I/O range is a classic or an
 *   indexed gmux, which only the hardware's answer to the probe tells
 *   apart (apple_gmux_detect(), gmux_detect()); a memory range is the T2
 *   gmux. Its GPE: GMGP, else the first GPE its _PRW returns.
 * - Each Thunderbolt controller: a device with an XRPE or TRPE method (the
 *   NHI; tb_macpm's test too). Its root port is three segments up (past
 *   UPSB and DSB0; MacPro6,1 calls its upstream ports UFS0-2). XRPE,
 *   XRIL and XRIN make Thunderbolt 1 (Light and Eagle Ridge; with SXFP,
 *   MacBookPro10,1's Cactus Ridge); TRPE with XRIL and XRIN a 2013-2015
 *   controller (Cactus or Falcon Ridge); TRPE without them Thunderbolt 3,
 *   whose plug GPE is the one method of a Scope (\_GPE) written in its
 *   root port's scope of an SSDT (aml_table_scope_gpe(), as tb_macpm
 *   finds it): level-triggered with a pad it flips on Alpine Ridge, edge
 *   on Titan Ridge. Its power goes by RTPC votes and the root port's _PS3
 *   where RTPC writes the root port's RTBT and that port has _PS3, else
 *   by TRPE alone (MacPro7,1, whose RTPC is a stub).
 * - What the quirk table names for the model: a masked GPE (a method
 *   _Lxx/_Exx in \_GPE, a _PRW naming it, or the _GPE of a device: an
 *   embedded controller's SCI, MacBookPro12,1's 0x4E), the devices whose
 *   wake-up is turned off (each a device with a _PRW), and on Cactus Ridge
 *   the SXIO/SXFP/SXLV methods the kernel's quirk looks up.
 *
 * Each is compared with the model table's row: a difference is one line
 * that names the model, what the table says and what the firmware
 * declares. Without a row (an unknown model) the firmware is described
 * and nothing is compared.
 *
 * The tables are firmware data, or a file anyone can hand the tool: a
 * table is checked whole (header, Length, checksum, signature) before its
 * AML is walked, and every read of a name's data is bounded by the object
 * the walk handed over. A table that fails is refused with the reason and,
 * for AML, the offset where the walk stopped.
 */

static const char * const mac_fw_names[] = {
	"XRPE", "TRPE", "XRIL", "XRIN", "SXFP", "SXIO", "SXLV", "RTPC",
	"_PS3", "_PRW", "_HID", "_CID", "_CRS", "GMGP", "_GPE",
};

#define AML_RETURN_OP	0xa4
#define AML_PACKAGE	0x12
#define AML_BUFFER	0x11
#define AML_STRING	0x0d

#define MAC_FW_STR_(x)	#x
#define MAC_FW_STR(x)	MAC_FW_STR_(x)

void mac_fw_init(struct mac_fw *fw)
{
	memset(fw, 0, sizeof(*fw));
	fw->gmux.gpe = -1;
}

const char *mac_fw_res_name(enum mac_fw_res res)
{
	switch (res) {
	case MAC_FW_RES_IO:
		return "io";
	case MAC_FW_RES_MMIO:
		return "mmio";
	default:
		return "none";
	}
}

/* _Lxx or _Exx: its number and trigger. */
static bool mac_fw_gpe_name(const char seg[4], unsigned int *gpe, bool *level)
{
	unsigned int i, v = 0;

	if (seg[0] != '_' || (seg[1] != 'L' && seg[1] != 'E'))
		return false;
	for (i = 2; i < 4; i++) {
		char c = seg[i];

		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (c - 'A' + 10);
		else
			return false;
	}
	*gpe = v;
	*level = seg[1] == 'L';
	return true;
}

static void mac_fw_visit(void *ctx, const struct aml_obj *o)
{
	static const char gpe_scope[4] = { '_', 'G', 'P', 'E' };
	struct mac_fw *fw = ctx;
	struct mac_fw_obj *r;
	unsigned int i, gpe;
	bool level;

	if (!o->depth || o->depth > AML_GPE_MAX_DEPTH)
		return;
	if (o->type == AML_OBJ_METHOD && o->depth == 2 && !memcmp(o->seg[0], gpe_scope, 4) &&
	    mac_fw_gpe_name(o->seg[1], &gpe, &level)) {
		fw->gpe_method[gpe / 8] |= 1 << (gpe % 8);
		return;
	}
	if (o->type == AML_OBJ_SCOPE)
		return;
	if (o->type != AML_OBJ_DEVICE) {
		for (i = 0; i < ARRAY_SIZE(mac_fw_names); i++)
			if (!memcmp(o->seg[o->depth - 1], mac_fw_names[i], 4))
				break;
		if (i == ARRAY_SIZE(mac_fw_names))
			return;
	}
	if (fw->nobjs == MAC_FW_MAX_OBJS) {
		if (!fw->objs_more)
			fw->objs_more = o->data;
		return;
	}
	r = &fw->objs[fw->nobjs++];
	memcpy(r->seg, o->seg, 4 * o->depth);
	r->depth = (u8)o->depth;
	r->type = (u8)o->type;
	r->data = o->data;
	r->len = o->len;
}

static bool mac_fw_sig(const u8 *t, const char *sig)
{
	return !memcmp(t, sig, 4);
}

/* snprintf() is in both the kernel and libc; a short message is enough */
static void mac_fw_err(struct mac_fw_error *err, size_t offset, const char *msg)
{
	size_t n = strlen(msg);

	if (n >= sizeof(err->msg))
		n = sizeof(err->msg) - 1;
	memcpy(err->msg, msg, n);
	err->msg[n] = 0;
	err->offset = offset;
}

int mac_fw_add_table(struct mac_fw *fw, const u8 *table, size_t len, struct mac_fw_error *err)
{
	unsigned int nobjs = fw->nobjs;
	u8 gpe_method[sizeof(fw->gpe_method)];
	size_t where = 0;
	u32 length = 0;
	int ret;

	memset(err, 0, sizeof(*err));
	if (fw->ntables == MAC_FW_MAX_TABLES) {
		mac_fw_err(err, 0, "too many tables: the check has room for "
			   MAC_FW_STR(MAC_FW_MAX_TABLES));
		return -EINVAL;
	}
	ret = aml_table_check(table, len, &length);
	if (ret == -ENODATA && len < AML_TABLE_HEADER_LEN) {
		mac_fw_err(err, len, "truncated: shorter than a table header (36 bytes)");
		return -EINVAL;
	}
	if (ret == -ENODATA) {
		mac_fw_err(err, len, "truncated: its header's Length is beyond the end of the file");
		return -EINVAL;
	}
	if (ret == -EINVAL) {
		mac_fw_err(err, 4, "its header's Length is shorter than the header");
		return -EINVAL;
	}
	if (length != len) {
		mac_fw_err(err, length, "the file goes on after the table's Length");
		return -EINVAL;
	}
	if (ret == -EBADMSG) {
		mac_fw_err(err, 9, "bad checksum: its bytes do not sum to 0");
		return -EINVAL;
	}
	if (!mac_fw_sig(table, "DSDT") && !mac_fw_sig(table, "SSDT")) {
		mac_fw_err(err, 0, "not a DSDT or SSDT");
		return -EINVAL;
	}
	memcpy(gpe_method, fw->gpe_method, sizeof(gpe_method));
	fw->objs_more = NULL;
	ret = aml_walk_objects(table + AML_TABLE_HEADER_LEN, length - AML_TABLE_HEADER_LEN,
			       mac_fw_visit, fw, &where);
	if (ret)
		mac_fw_err(err, where + AML_TABLE_HEADER_LEN,
			   "its AML cannot be walked (an object the walk does not know)");
	else if (fw->objs_more)
		/* a check on part of a table could say "agrees" of what it missed */
		mac_fw_err(err, (size_t)(fw->objs_more - table),
			   "too many named objects: the check has room for "
			   MAC_FW_STR(MAC_FW_MAX_OBJS) " in all tables");
	if (ret || fw->objs_more) {
		/* what it recorded points into a table now refused */
		fw->nobjs = nobjs;
		fw->objs_more = NULL;
		memcpy(fw->gpe_method, gpe_method, sizeof(gpe_method));
		return -EINVAL;
	}
	fw->tables[fw->ntables] = table;
	fw->table_len[fw->ntables++] = length;
	return 0;
}

/* --- what the objects say ------------------------------------------------ */

static void mac_fw_path(const char (*seg)[4], unsigned int depth, char *buf)
{
	unsigned int i;

	*buf++ = '\\';
	for (i = 0; i < depth; i++) {
		if (i)
			*buf++ = '.';
		memcpy(buf, seg[i], 4);
		buf += 4;
	}
	*buf = 0;
}

/* The object @name (4 characters) directly below the @depth segments @seg. */
static const struct mac_fw_obj *mac_fw_find(const struct mac_fw *fw, const char (*seg)[4],
					    unsigned int depth, const char *name)
{
	unsigned int i;

	for (i = 0; i < fw->nobjs; i++) {
		const struct mac_fw_obj *o = &fw->objs[i];

		if (o->depth == depth + 1 && !memcmp(o->seg, seg, 4 * depth) &&
		    !memcmp(o->seg[depth], name, 4))
			return o;
	}
	return NULL;
}

static const struct mac_fw_obj *mac_fw_method(const struct mac_fw *fw, const char (*seg)[4],
					      unsigned int depth, const char *name)
{
	const struct mac_fw_obj *o = mac_fw_find(fw, seg, depth, name);

	return o && o->type == AML_OBJ_METHOD ? o : NULL;
}

/* A Name holding an integer constant. */
static bool mac_fw_int(const struct mac_fw_obj *o, u64 *v)
{
	return o && o->type == AML_OBJ_NAME && aml_int_const(o->data, o->len, v) > 0;
}

/* _HID or _CID of @o as text: an EisaId decoded, or a string. */
static bool mac_fw_id(const struct mac_fw_obj *o, char *buf, size_t size)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i;
	u64 v;

	if (!o || o->type != AML_OBJ_NAME || size < 8)
		return false;
	if (o->len && o->data[0] == AML_STRING) {
		for (i = 1; i < o->len && o->data[i] && i < size; i++)
			buf[i - 1] = (char)o->data[i];
		if (i >= o->len || i >= size || o->data[i])
			return false;
		buf[i - 1] = 0;
		return true;
	}
	if (aml_int_const(o->data, o->len, &v) != 5)
		return false;
	/* EisaId: three letters of 5 bits, then four hex digits, big-endian */
	buf[0] = (char)('@' + ((v >> 2) & 0x1f));
	buf[1] = (char)('@' + (((v & 3) << 3) | ((v >> 13) & 7)));
	buf[2] = (char)('@' + ((v >> 8) & 0x1f));
	buf[3] = hex[(v >> 20) & 0xf];
	buf[4] = hex[(v >> 16) & 0xf];
	buf[5] = hex[(v >> 28) & 0xf];
	buf[6] = hex[(v >> 24) & 0xf];
	buf[7] = 0;
	return true;
}

static u32 mac_fw_le(const u8 *p, unsigned int n)
{
	u32 v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (u32)p[i] << (8 * i);
	return v;
}

/*
 * A resource template [@p, @p + @n): its first I/O or memory range into
 * @g. Return: whether it is a whole template (ends in an End Tag).
 */
static bool mac_fw_resources(const u8 *p, size_t n, struct mac_fw_gmux *g)
{
	size_t i = 0, l;
	u8 type;

	while (i < n) {
		if (p[i] & 0x80) {	/* large item: tag, 16-bit length */
			if (n - i < 3)
				return false;
			l = mac_fw_le(p + i + 1, 2);
			if (l > n - i - 3)
				return false;
			type = p[i] & 0x7f;
			if (g->res == MAC_FW_RES_NONE && type == 0x06 && l >= 9) {
				g->res = MAC_FW_RES_MMIO;	/* Memory32Fixed */
				g->base = mac_fw_le(p + i + 4, 4);
				g->len = mac_fw_le(p + i + 8, 4);
			} else if (g->res == MAC_FW_RES_NONE && type == 0x05 && l >= 17) {
				g->res = MAC_FW_RES_MMIO;	/* Memory32 */
				g->base = mac_fw_le(p + i + 4, 4);
				g->len = mac_fw_le(p + i + 16, 4);
			}
			i += 3 + l;
			continue;
		}
		type = (p[i] >> 3) & 0x0f;
		l = p[i] & 7;
		if (l > n - i - 1)
			return false;
		if (type == 0x0f)		/* End Tag */
			return true;
		if (g->res == MAC_FW_RES_NONE && type == 0x08 && l >= 7) {
			g->res = MAC_FW_RES_IO;		/* IO */
			g->base = mac_fw_le(p + i + 2, 2);
			g->len = p[i + 7];
		} else if (g->res == MAC_FW_RES_NONE && type == 0x09 && l >= 3) {
			g->res = MAC_FW_RES_IO;		/* FixedIO */
			g->base = mac_fw_le(p + i + 1, 2) & 0x3ff;
			g->len = p[i + 3];
		}
		i += 1 + l;
	}
	return false;
}

/* A Buffer at @p (before @end) holding a resource template, into @g. */
static bool mac_fw_crs_buffer(const u8 *p, size_t n, struct mac_fw_gmux *g)
{
	struct mac_fw_gmux t = *g;
	const u8 *body;
	size_t len;
	int k;
	u64 size;

	if (aml_pkg_object(p, n, &body, &len))
		return false;
	k = aml_int_const(body, len, &size);
	if (k <= 0)
		return false;
	t.res = MAC_FW_RES_NONE;
	if (!mac_fw_resources(body + k, len - k, &t))
		return false;
	*g = t;
	return true;
}

static void mac_fw_crs(const struct mac_fw_obj *o, struct mac_fw_gmux *g)
{
	size_t i;

	if (!o)
		return;
	if (o->type == AML_OBJ_NAME) {
		if (o->len && o->data[0] == AML_BUFFER)
			mac_fw_crs_buffer(o->data, o->len, g);
		return;
	}
	if (o->type != AML_OBJ_METHOD)
		return;
	g->crs_method = true;
	for (i = 0; i < o->len; i++)
		if (o->data[i] == AML_BUFFER && mac_fw_crs_buffer(o->data + i, o->len - i, g))
			return;
}

/* The GPE a Package (at @p) of a _PRW names first, or -1. */
static int mac_fw_prw_pkg(const u8 *p, size_t n)
{
	const u8 *body;
	size_t len;
	u64 v;

	if (!n || p[0] != AML_PACKAGE || aml_pkg_object(p, n, &body, &len) || len < 2)
		return -1;
	/* NumElements, then the GPE number (a GPE block reference: no) */
	if (aml_int_const(body + 1, len - 1, &v) <= 0 || v > 0xff)
		return -1;
	return (int)v;
}

/*
 * The GPEs a _PRW returns into @gpe (room for @max): a Name's package, or
 * each Return (Package) in a method's body. Return: how many (distinct).
 */
static unsigned int mac_fw_prw(const struct mac_fw_obj *o, int *gpe, unsigned int max)
{
	unsigned int n = 0, j;
	size_t i;
	int g;

	if (!o)
		return 0;
	if (o->type == AML_OBJ_NAME) {
		g = mac_fw_prw_pkg(o->data, o->len);
		if (g >= 0 && max)
			gpe[n++] = g;
		return n;
	}
	if (o->type != AML_OBJ_METHOD)
		return 0;
	for (i = 0; i + 1 < o->len; i++) {
		if (o->data[i] != AML_RETURN_OP || o->data[i + 1] != AML_PACKAGE)
			continue;
		g = mac_fw_prw_pkg(o->data + i + 1, o->len - i - 1);
		if (g < 0)
			continue;
		for (j = 0; j < n && gpe[j] != g; j++)
			;
		if (j == n && n < max)
			gpe[n++] = g;
	}
	return n;
}

static bool mac_fw_bit(const u8 *map, unsigned int bit)
{
	return bit < 256 && (map[bit / 8] >> (bit % 8)) & 1;
}

/* Whether the body of @o holds the name @seg (4 characters). */
static bool mac_fw_mentions(const struct mac_fw_obj *o, const char *seg)
{
	size_t i;

	for (i = 0; o && i + 4 <= o->len; i++)
		if (!memcmp(o->data + i, seg, 4))
			return true;
	return false;
}

/* --- the differences ------------------------------------------------------ */

/* Append to a line; cut at its end. */
static void mac_fw_cat(char *line, const char *s)
{
	size_t n = strlen(line), m = strlen(s);

	if (n + m >= MAC_FW_LINE)
		m = MAC_FW_LINE - 1 - n;
	memcpy(line + n, s, m);
	line[n + m] = 0;
}

static void mac_fw_hex(char *line, u64 v, unsigned int digits)
{
	static const char hex[] = "0123456789abcdef";
	char buf[24];
	unsigned int i;

	buf[0] = '0';
	buf[1] = 'x';
	for (i = 0; i < digits; i++)
		buf[2 + i] = hex[(v >> (4 * (digits - 1 - i))) & 0xf];
	buf[2 + digits] = 0;
	mac_fw_cat(line, buf);
}

static void mac_fw_dec(char *line, unsigned long v)
{
	char buf[24];
	int i = sizeof(buf) - 1;

	buf[i] = 0;
	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v && i);
	mac_fw_cat(line, buf + i);
}

/* A new difference line, started with the model: "MacBookPro11,3: " */
static char *mac_fw_diff(struct mac_fw *fw)
{
	char *line;

	if (fw->ndiffs == MAC_FW_MAX_DIFFS)
		return NULL;
	line = fw->diffs[fw->ndiffs++];
	line[0] = 0;
	if (fw->model) {
		mac_fw_cat(line, fw->model->family);
		mac_fw_dec(line, fw->model->major);
		mac_fw_cat(line, ",");
		mac_fw_dec(line, fw->model->minor);
		mac_fw_cat(line, ": ");
	}
	return line;
}

static void mac_fw_gmux_text(const struct mac_fw_gmux *g, char *line)
{
	if (!g->count) {
		mac_fw_cat(line, "no APP000B");
		return;
	}
	mac_fw_cat(line, "APP000B at ");
	mac_fw_cat(line, g->path);
	if (g->res == MAC_FW_RES_IO) {
		mac_fw_cat(line, " with I/O ports at ");
		mac_fw_hex(line, g->base, 4);
	} else if (g->res == MAC_FW_RES_MMIO) {
		mac_fw_cat(line, " with memory at ");
		mac_fw_hex(line, g->base, 8);
	} else {
		mac_fw_cat(line, " without an I/O or memory range");
	}
}

static void mac_fw_find_gmux(struct mac_fw *fw)
{
	struct mac_fw_gmux *g = &fw->gmux;
	unsigned int i;
	int gpe[2];
	char id[16];
	u64 v;

	for (i = 0; i < fw->nobjs; i++) {
		const struct mac_fw_obj *o = &fw->objs[i], *d;

		if (o->type != AML_OBJ_NAME || memcmp(o->seg[o->depth - 1], "_HID", 4) ||
		    !mac_fw_id(o, id, sizeof(id)) || strcmp(id, "APP000B"))
			continue;
		if (g->count++)
			continue;
		mac_fw_path(o->seg, o->depth - 1u, g->path);
		if (mac_fw_id(mac_fw_find(fw, o->seg, o->depth - 1u, "_CID"), id, sizeof(id)) &&
		    strlen(id) < sizeof(g->cid))
			memcpy(g->cid, id, strlen(id) + 1);
		mac_fw_crs(mac_fw_find(fw, o->seg, o->depth - 1u, "_CRS"), g);
		d = mac_fw_find(fw, o->seg, o->depth - 1u, "GMGP");
		if (mac_fw_int(d, &v) && v <= 0xff) {
			g->gpe = (int)v;
			g->gpe_from = "GMGP";
		} else if (mac_fw_prw(mac_fw_find(fw, o->seg, o->depth - 1u, "_PRW"), gpe, 1)) {
			g->gpe = gpe[0];
			g->gpe_from = "_PRW";
		}
	}
}

static void mac_fw_check_gmux(struct mac_fw *fw)
{
	const struct mac_fw_gmux *g = &fw->gmux;
	enum mac_gmux_kind kind = fw->model->gmux;
	const char *why = NULL;
	char *line;

	switch (kind) {
	case MAC_GMUX_NONE:
		if (g->count)
			why = "none";
		break;
	case MAC_GMUX_CLASSIC:
	case MAC_GMUX_INDEXED:
		if (g->res != MAC_FW_RES_IO)
			why = kind == MAC_GMUX_CLASSIC ? "classic (I/O ports)" :
							 "indexed (I/O ports)";
		break;
	case MAC_GMUX_T2:
		if (g->res != MAC_FW_RES_MMIO)
			why = "t2 (memory-mapped)";
		break;
	default:	/* fake, unknown: an APP000B of any kind */
		if (!g->count)
			why = kind == MAC_GMUX_FAKE ? "fake (an APP000B without a gmux)" :
						      "unknown (an APP000B)";
		break;
	}
	if (!why)
		return;
	line = mac_fw_diff(fw);
	if (!line)
		return;
	mac_fw_cat(line, "gmux: the model table says ");
	mac_fw_cat(line, why);
	mac_fw_cat(line, ", the firmware declares ");
	mac_fw_gmux_text(g, line);
}

/* as tb_macpm's TB_STAY_ON_TB3_TRPE and TB_STAY_ON_TB3_STUB say it */
#define MAC_FW_STAY_ON_TRPE \
	"Thunderbolt 3 with a level plug GPE (Alpine Ridge) without working RTPC votes: TRPE only is not done"

/* The generations whose methods these are, one bit per enum mac_tb_gen. */
#define MAC_FW_GEN(g)	(1U << (g))

static void mac_fw_tb_kind(struct mac_fw_tb *t)
{
	bool tb12 = t->xril || t->has_xrin;

	if (t->xrpe && !t->sxfp) {
		t->kind = "Thunderbolt 1 (Light or Eagle Ridge: XRPE)";
		t->gens = MAC_FW_GEN(MAC_TB_LIGHT_RIDGE) | MAC_FW_GEN(MAC_TB_EAGLE_RIDGE);
	} else if (t->xrpe) {
		t->kind = "Thunderbolt 1 (Cactus Ridge: XRPE and SXFP)";
		t->gens = MAC_FW_GEN(MAC_TB_CACTUS_RIDGE);
	} else if (tb12) {
		t->kind = "Thunderbolt 1 or 2 (Cactus or Falcon Ridge: TRPE, XRIL, XRIN)";
		t->gens = MAC_FW_GEN(MAC_TB_CACTUS_RIDGE) | MAC_FW_GEN(MAC_TB_FALCON_RIDGE);
	} else if (t->nplug == 1 && t->plug.level) {
		t->kind = "Thunderbolt 3 (Alpine Ridge: a level plug GPE)";
		t->gens = MAC_FW_GEN(MAC_TB_ALPINE_RIDGE);
	} else if (t->nplug == 1) {
		t->kind = "Thunderbolt 3 (Titan Ridge: an edge plug GPE)";
		t->gens = MAC_FW_GEN(MAC_TB_TITAN_RIDGE);
	} else {
		t->kind = "Thunderbolt 3 (TRPE without XRIL and XRIN)";
		t->gens = MAC_FW_GEN(MAC_TB_ALPINE_RIDGE) | MAC_FW_GEN(MAC_TB_TITAN_RIDGE);
	}

	/* as tb_macpm's tb_read_methods() decides */
	if (tb12) {
		if (!t->xril)
			t->stay_on = "XRPE/TRPE without XRIL";
		else if (!t->has_xrin)
			t->stay_on = "XRPE/TRPE without XRIN";
		else if (t->xrin > 0xff)
			t->stay_on = "XRIN is not a GPE number";
		else
			t->mechanism = t->xrpe ? "XRPE" : "TRPE";
		return;
	}
	t->mechanism = t->rtpc && t->rtpc_writes && t->rp_ps3 ? "RTPC votes, root port _PS3" :
								 "TRPE";
	if (t->nplug != 1)
		t->stay_on = "Thunderbolt 3: no single plug GPE in its root port's scope";
	else if (t->plug.level && strcmp(t->mechanism, "TRPE"))
		t->stay_on = NULL;
	else if (t->plug.level)
		t->stay_on = MAC_FW_STAY_ON_TRPE;
}

static void mac_fw_find_tb(struct mac_fw *fw)
{
	unsigned int i, j, k;

	for (i = 0; i < fw->nobjs; i++) {
		const struct mac_fw_obj *o = &fw->objs[i];
		unsigned int d = o->depth - 1u;
		struct aml_gpe_method m[2];
		struct mac_fw_tb *t;
		char nhi[MAC_FW_PATH_LEN];
		u64 v;
		int r;

		if (o->type != AML_OBJ_METHOD || (memcmp(o->seg[d], "XRPE", 4) &&
						  memcmp(o->seg[d], "TRPE", 4)))
			continue;
		mac_fw_path(o->seg, d, nhi);
		for (j = 0; j < fw->ntb && strcmp(fw->tb[j].nhi, nhi); j++)
			;
		if (j < fw->ntb)
			continue;
		if (fw->ntb == MAC_FW_MAX_TB) {
			fw->tb_more = true;
			continue;
		}
		t = &fw->tb[fw->ntb++];
		memset(t, 0, sizeof(*t));
		memcpy(t->nhi, nhi, sizeof(nhi));
		t->xrpe = mac_fw_method(fw, o->seg, d, "XRPE");
		t->trpe = mac_fw_method(fw, o->seg, d, "TRPE");
		t->xril = mac_fw_method(fw, o->seg, d, "XRIL");
		t->sxfp = mac_fw_method(fw, o->seg, d, "SXFP");
		t->sxio_sxlv = mac_fw_method(fw, o->seg, d, "SXIO") &&
			       mac_fw_method(fw, o->seg, d, "SXLV");
		t->rtpc = mac_fw_method(fw, o->seg, d, "RTPC");
		t->rtpc_writes = mac_fw_mentions(mac_fw_method(fw, o->seg, d, "RTPC"), "RTBT");
		t->has_xrin = mac_fw_int(mac_fw_find(fw, o->seg, d, "XRIN"), &v);
		t->xrin = t->has_xrin ? (u32)v : 0;
		t->nplug = 0;
		if (d >= 4) {
			mac_fw_path(o->seg, d - 3, t->rp);
			t->rp_ps3 = mac_fw_method(fw, o->seg, d - 3, "_PS3");
			/* in the SSDTs, as tb_macpm reads them */
			for (k = 0; k < fw->ntables; k++) {
				if (!mac_fw_sig(fw->tables[k], "SSDT"))
					continue;
				r = aml_table_scope_gpe(fw->tables[k], fw->table_len[k], t->rp, m,
							ARRAY_SIZE(m));
				if (r < 0) {
					t->nplug = -1;
					break;
				}
				if (r && !t->nplug)
					t->plug = m[0];
				t->nplug += r;
			}
		}
		mac_fw_tb_kind(t);
	}
}

static void mac_fw_check_tb(struct mac_fw *fw)
{
	const struct mac_model_info *m = fw->model;
	unsigned int i;
	char *line;

	if (m->tb == MAC_TB_ICE_LAKE) {
		/* the CPU's own: standard power resources, no XRPE/TRPE */
		if (!fw->ntb)
			return;
	} else if (fw->ntb == m->tb_count && !fw->tb_more) {
		goto each;
	}
	line = mac_fw_diff(fw);
	if (!line)
		return;
	mac_fw_cat(line, "thunderbolt: the model table says ");
	mac_fw_dec(line, m->tb_count);
	mac_fw_cat(line, " ");
	mac_fw_cat(line, mac_tb_gen_name(m->tb));
	mac_fw_cat(line, m->tb == MAC_TB_ICE_LAKE ? " (in the CPU)" : "");
	mac_fw_cat(line, m->tb_count == 1 ? " controller" : " controllers");
	mac_fw_cat(line, ", the firmware declares ");
	mac_fw_dec(line, fw->ntb);
	mac_fw_cat(line, fw->tb_more ? " or more" : "");
	mac_fw_cat(line, " with XRPE or TRPE");
each:
	if (m->tb == MAC_TB_NONE || m->tb == MAC_TB_ICE_LAKE)
		return;
	for (i = 0; i < fw->ntb; i++) {
		const struct mac_fw_tb *t = &fw->tb[i];

		if (t->gens & MAC_FW_GEN(m->tb))
			continue;
		line = mac_fw_diff(fw);
		if (!line)
			return;
		mac_fw_cat(line, "thunderbolt: the model table says ");
		mac_fw_cat(line, mac_tb_gen_name(m->tb));
		mac_fw_cat(line, ", the methods of ");
		mac_fw_cat(line, t->nhi);
		mac_fw_cat(line, " are ");
		mac_fw_cat(line, t->kind);
	}
}

/* "\\_SB.PCI0.XHC1" into segments ('_'-padded); false if it is not a path */
static bool mac_fw_parse_path(const char *s, char (*seg)[4], unsigned int *depth)
{
	unsigned int i;

	*depth = 0;
	if (*s++ != '\\')
		return false;
	while (*s) {
		if (*depth == AML_GPE_MAX_DEPTH)
			return false;
		for (i = 0; i < 4 && *s && *s != '.'; i++)
			seg[*depth][i] = *s++;
		if (!i || (*s && *s != '.'))
			return false;
		for (; i < 4; i++)
			seg[*depth][i] = '_';
		(*depth)++;
		if (*s == '.')
			s++;
	}
	return *depth;
}

static struct mac_fw_check *mac_fw_new_check(struct mac_fw *fw, const char *quirk)
{
	struct mac_fw_check *c;

	if (fw->nchecks == MAC_FW_MAX_CHECKS)
		return NULL;
	c = &fw->checks[fw->nchecks++];
	memset(c, 0, sizeof(*c));
	c->quirk = quirk;
	return c;
}

static void mac_fw_check_failed(struct mac_fw *fw, const struct mac_fw_check *c)
{
	char *line = mac_fw_diff(fw);

	if (!line)
		return;
	mac_fw_cat(line, "quirk ");
	mac_fw_cat(line, c->quirk);
	mac_fw_cat(line, " names ");
	mac_fw_cat(line, c->what);
	mac_fw_cat(line, ": ");
	mac_fw_cat(line, c->found);
}

static void mac_fw_check_gpe(struct mac_fw *fw, const struct mac_quirk *q)
{
	struct mac_fw_check *c = mac_fw_new_check(fw, mac_quirk_name(q->id));
	bool method = mac_fw_bit(fw->gpe_method, q->gpe);
	bool prw = mac_fw_bit(fw->gpe_prw, q->gpe);
	char ec[MAC_FW_PATH_LEN] = "";
	unsigned int i;
	u64 v;

	if (!c)
		return;
	/* an embedded controller's SCI: Name (_GPE, 0x4E) in its device */
	for (i = 0; i < fw->nobjs && !ec[0]; i++) {
		const struct mac_fw_obj *o = &fw->objs[i];

		if (o->depth >= 2 && !memcmp(o->seg[o->depth - 1], "_GPE", 4) &&
		    mac_fw_int(o, &v) && v == q->gpe)
			mac_fw_path(o->seg, o->depth - 1u, ec);
	}
	mac_fw_cat(c->what, "GPE ");
	mac_fw_hex(c->what, q->gpe, 2);
	c->ok = method || prw || ec[0];
	if (method)
		mac_fw_cat(c->found, "a method in \\_GPE; ");
	if (prw)
		mac_fw_cat(c->found, "a _PRW names it; ");
	if (ec[0]) {
		mac_fw_cat(c->found, "the _GPE of ");
		mac_fw_cat(c->found, ec);
		mac_fw_cat(c->found, "; ");
	}
	if (c->ok) {
		c->found[strlen(c->found) - 2] = 0;
	} else {
		mac_fw_cat(c->found, "no \\_GPE method, no _PRW and no device's _GPE names it");
		mac_fw_check_failed(fw, c);
	}
}

static void mac_fw_check_wake(struct mac_fw *fw, const struct mac_quirk *q)
{
	const char * const *path;
	char seg[AML_GPE_MAX_DEPTH][4];
	unsigned int depth, n, i;
	int gpe[2];

	for (path = q->wake; path && *path; path++) {
		struct mac_fw_check *c = mac_fw_new_check(fw, mac_quirk_name(q->id));
		bool dev = false;

		if (!c)
			return;
		mac_fw_cat(c->what, *path);
		if (!mac_fw_parse_path(*path, seg, &depth))
			continue;
		for (i = 0; i < fw->nobjs; i++)
			if (fw->objs[i].type == AML_OBJ_DEVICE && fw->objs[i].depth == depth &&
			    !memcmp(fw->objs[i].seg, seg, 4 * depth))
				dev = true;
		n = mac_fw_prw(mac_fw_find(fw, (const char (*)[4])seg, depth, "_PRW"), gpe, 2);
		c->ok = dev && n;
		if (!dev) {
			mac_fw_cat(c->found, "no such device");
		} else if (!n) {
			mac_fw_cat(c->found, "a device without a _PRW GPE");
		} else {
			mac_fw_cat(c->found, "_PRW GPE ");
			for (i = 0; i < n; i++) {
				if (i)
					mac_fw_cat(c->found, " or ");
				mac_fw_hex(c->found, (u64)gpe[i], 2);
			}
		}
		if (!c->ok)
			mac_fw_check_failed(fw, c);
	}
}

static bool mac_fw_listed(const char * const *products, const char *product)
{
	if (!products || !product)
		return false;
	for (; *products; products++)
		if (!strcmp(*products, product))
			return true;
	return false;
}

static void mac_fw_check_quirks(struct mac_fw *fw, const char *product)
{
	const struct mac_quirk *q;
	size_t n, i;
	unsigned int k;

	q = mac_quirk_table(&n);
	for (i = 0; i < n; i++) {
		if (!mac_fw_listed(q[i].match.products, product))
			continue;
		if (q[i].action == MAC_QUIRK_ACT_MASK_GPE)
			mac_fw_check_gpe(fw, &q[i]);
		else if (q[i].action == MAC_QUIRK_ACT_DISABLE_WAKE)
			mac_fw_check_wake(fw, &q[i]);
	}
	/* tb_cactus_ridge_s2idle: the methods the kernel's quirk runs */
	if (!fw->model || fw->model->tb != MAC_TB_CACTUS_RIDGE)
		return;
	for (k = 0; k < fw->ntb; k++) {
		struct mac_fw_check *c = mac_fw_new_check(fw, "tb_cactus_ridge_s2idle");

		if (!c)
			return;
		mac_fw_cat(c->what, fw->tb[k].nhi);
		mac_fw_cat(c->what, ".SXIO/SXFP/SXLV");
		c->ok = fw->tb[k].sxio_sxlv && fw->tb[k].sxfp;
		mac_fw_cat(c->found, c->ok ? "all three methods" : "not all three methods");
	}
}

void mac_fw_finish(struct mac_fw *fw, const struct mac_model_info *model, const char *product)
{
	unsigned int i, j, n;
	int gpe[4];

	fw->model = model;
	fw->ndiffs = 0;
	fw->nchecks = 0;
	memset(fw->gpe_prw, 0, sizeof(fw->gpe_prw));
	for (i = 0; i < fw->nobjs; i++) {
		const struct mac_fw_obj *o = &fw->objs[i];

		if (memcmp(o->seg[o->depth - 1], "_PRW", 4))
			continue;
		n = mac_fw_prw(o, gpe, ARRAY_SIZE(gpe));
		for (j = 0; j < n; j++)
			fw->gpe_prw[gpe[j] / 8] |= 1 << (gpe[j] % 8);
	}
	memset(&fw->gmux, 0, sizeof(fw->gmux));
	fw->gmux.gpe = -1;
	mac_fw_find_gmux(fw);
	fw->ntb = 0;
	fw->tb_more = false;
	mac_fw_find_tb(fw);
	mac_fw_check_quirks(fw, product);
	if (!model)
		return;
	mac_fw_check_gmux(fw);
	mac_fw_check_tb(fw);
}
