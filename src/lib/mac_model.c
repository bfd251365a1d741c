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
 * for which the bundle knows the gmux kind and the Thunderbolt controller.
 * Sources: the gmux model list and the Thunderbolt controller list in the
 * project's reference notes (gmux.md section 2, thunderbolt.md section 8).
 *
 * Rules kept by the table (and checked by the host unit tests):
 *
 * - sorted by family (strcmp() order), then major, then minor, numerically;
 * - every family/major/minor appears once;
 * - a model with a single GPU has %MAC_GMUX_NONE;
 * - @tb_count is 0 exactly when @tb is %MAC_TB_NONE.
 *
 * The table is small, so mac_model_lookup() is a plain linear scan.
 */

#define MODEL(fam, maj, min, gmux_kind, tb_gen, tbs, name) \
	{ .family = (fam), .major = (maj), .minor = (min), .gmux = (gmux_kind), \
	  .tb = (tb_gen), .tb_count = (tbs), .desc = (name) }

static const struct mac_model_info mac_models[] = {
	/* Eagle Ridge on the 2011 Airs is listed but unverified. */
	MODEL("MacBookAir", 4, 1, MAC_GMUX_NONE, MAC_TB_EAGLE_RIDGE, 1,
	      "MacBook Air (11-inch, Mid 2011)"),
	MODEL("MacBookAir", 4, 2, MAC_GMUX_NONE, MAC_TB_EAGLE_RIDGE, 1,
	      "MacBook Air (13-inch, Mid 2011)"),

	/* 2008-2010: classic gmux on the dual-GPU models, no Thunderbolt. */
	MODEL("MacBookPro", 5, 1, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0,
	      "MacBook Pro (15-inch, Late 2008)"),
	MODEL("MacBookPro", 5, 2, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0,
	      "MacBook Pro (17-inch, Early 2009)"),
	MODEL("MacBookPro", 5, 3, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0,
	      "MacBook Pro (15-inch, Mid 2009)"),
	MODEL("MacBookPro", 5, 4, MAC_GMUX_NONE, MAC_TB_NONE, 0,
	      "MacBook Pro (15-inch, 2.53GHz, Mid 2009)"),
	MODEL("MacBookPro", 5, 5, MAC_GMUX_NONE, MAC_TB_NONE, 0,
	      "MacBook Pro (13-inch, Mid 2009)"),
	MODEL("MacBookPro", 6, 1, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0,
	      "MacBook Pro (17-inch, Mid 2010)"),
	MODEL("MacBookPro", 6, 2, MAC_GMUX_CLASSIC, MAC_TB_NONE, 0,
	      "MacBook Pro (15-inch, Mid 2010)"),

	/* 2011-2012: Light Ridge. The 13-inch 8,1 declares a gmux it lacks. */
	MODEL("MacBookPro", 8, 1, MAC_GMUX_FAKE, MAC_TB_LIGHT_RIDGE, 1,
	      "MacBook Pro (13-inch, Early 2011)"),
	MODEL("MacBookPro", 8, 2, MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1,
	      "MacBook Pro (15-inch, Early 2011)"),
	MODEL("MacBookPro", 8, 3, MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1,
	      "MacBook Pro (17-inch, Early 2011)"),
	MODEL("MacBookPro", 9, 1, MAC_GMUX_CLASSIC, MAC_TB_LIGHT_RIDGE, 1,
	      "MacBook Pro (15-inch, Mid 2012)"),
	MODEL("MacBookPro", 9, 2, MAC_GMUX_NONE, MAC_TB_LIGHT_RIDGE, 1,
	      "MacBook Pro (13-inch, Mid 2012)"),

	/* 2012-2013 Retina: indexed gmux, Cactus Ridge. */
	MODEL("MacBookPro", 10, 1, MAC_GMUX_INDEXED, MAC_TB_CACTUS_RIDGE, 1,
	      "MacBook Pro (Retina, 15-inch, Mid 2012)"),
	MODEL("MacBookPro", 10, 2, MAC_GMUX_NONE, MAC_TB_CACTUS_RIDGE, 1,
	      "MacBook Pro (Retina, 13-inch, Late 2012)"),

	/* 2013-2015: Falcon Ridge (TB2). */
	MODEL("MacBookPro", 11, 1, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1,
	      "MacBook Pro (Retina, 13-inch, Late 2013)"),
	MODEL("MacBookPro", 11, 2, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1,
	      "MacBook Pro (Retina, 15-inch, Late 2013, Iris Pro)"),
	MODEL("MacBookPro", 11, 3, MAC_GMUX_INDEXED, MAC_TB_FALCON_RIDGE, 1,
	      "MacBook Pro (Retina, 15-inch, Late 2013)"),
	MODEL("MacBookPro", 11, 4, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1,
	      "MacBook Pro (Retina, 15-inch, Mid 2015, Iris Pro)"),
	MODEL("MacBookPro", 11, 5, MAC_GMUX_INDEXED, MAC_TB_FALCON_RIDGE, 1,
	      "MacBook Pro (Retina, 15-inch, Mid 2015)"),
	MODEL("MacBookPro", 12, 1, MAC_GMUX_NONE, MAC_TB_FALCON_RIDGE, 1,
	      "MacBook Pro (Retina, 13-inch, Early 2015)"),

	/* 2016-2017: Alpine Ridge (TB3). */
	MODEL("MacBookPro", 13, 1, MAC_GMUX_NONE, MAC_TB_ALPINE_RIDGE, 1,
	      "MacBook Pro (13-inch, 2016, Two Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 13, 2, MAC_GMUX_NONE, MAC_TB_ALPINE_RIDGE, 1,
	      "MacBook Pro (13-inch, 2016, Four Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 13, 3, MAC_GMUX_INDEXED, MAC_TB_ALPINE_RIDGE, 1,
	      "MacBook Pro (15-inch, 2016)"),
	MODEL("MacBookPro", 14, 1, MAC_GMUX_NONE, MAC_TB_ALPINE_RIDGE, 1,
	      "MacBook Pro (13-inch, 2017, Two Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 14, 2, MAC_GMUX_NONE, MAC_TB_ALPINE_RIDGE, 1,
	      "MacBook Pro (13-inch, 2017, Four Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 14, 3, MAC_GMUX_INDEXED, MAC_TB_ALPINE_RIDGE, 1,
	      "MacBook Pro (15-inch, 2017)"),

	/*
	 * 2018-2020 T2 Macs: Titan Ridge is documented for the T2 Macs as a
	 * group; the per-model controller is unverified. The 13-inch 16,2
	 * uses the Thunderbolt controller integrated in its Ice Lake CPU.
	 */
	MODEL("MacBookPro", 15, 1, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 1,
	      "MacBook Pro (15-inch, 2018)"),
	MODEL("MacBookPro", 15, 2, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 1,
	      "MacBook Pro (13-inch, 2018, Four Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 15, 3, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 1,
	      "MacBook Pro (15-inch, 2018, Radeon Pro Vega)"),
	MODEL("MacBookPro", 15, 4, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 1,
	      "MacBook Pro (13-inch, 2019, Two Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 16, 1, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 1,
	      "MacBook Pro (16-inch, 2019)"),
	MODEL("MacBookPro", 16, 2, MAC_GMUX_NONE, MAC_TB_ICE_LAKE, 1,
	      "MacBook Pro (13-inch, 2020, Four Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 16, 3, MAC_GMUX_NONE, MAC_TB_TITAN_RIDGE, 1,
	      "MacBook Pro (13-inch, 2020, Two Thunderbolt 3 ports)"),
	MODEL("MacBookPro", 16, 4, MAC_GMUX_T2, MAC_TB_TITAN_RIDGE, 1,
	      "MacBook Pro (16-inch, 2019, Radeon Pro 5600M)"),

	/* Two FirePro GPUs and an APP000B of undocumented kind; three TB2 chips. */
	MODEL("MacPro", 6, 1, MAC_GMUX_UNKNOWN, MAC_TB_FALCON_RIDGE, 3,
	      "Mac Pro (Late 2013)"),

	MODEL("Macmini", 5, 1, MAC_GMUX_NONE, MAC_TB_LIGHT_RIDGE, 1,
	      "Mac mini (Mid 2011)"),
	MODEL("Macmini", 5, 2, MAC_GMUX_NONE, MAC_TB_LIGHT_RIDGE, 1,
	      "Mac mini (Mid 2011, Radeon HD 6630M)"),
	MODEL("Macmini", 5, 3, MAC_GMUX_NONE, MAC_TB_LIGHT_RIDGE, 1,
	      "Mac mini Server (Mid 2011)"),

	MODEL("iMac", 12, 1, MAC_GMUX_NONE, MAC_TB_LIGHT_RIDGE, 1,
	      "iMac (21.5-inch, Mid 2011)"),
	MODEL("iMac", 12, 2, MAC_GMUX_NONE, MAC_TB_LIGHT_RIDGE, 1,
	      "iMac (27-inch, Mid 2011)"),
	/*
	 * T2 desktops declare an MMIO APP000B; some registers answer (max
	 * brightness reads 0x03ff) but there is no display mux to drive.
	 */
	MODEL("iMac", 20, 1, MAC_GMUX_FAKE, MAC_TB_TITAN_RIDGE, 1,
	      "iMac (Retina 5K, 27-inch, 2020)"),
	MODEL("iMac", 20, 2, MAC_GMUX_FAKE, MAC_TB_TITAN_RIDGE, 1,
	      "iMac (Retina 5K, 27-inch, 2020, Radeon Pro 5700)"),

	MODEL("iMacPro", 1, 1, MAC_GMUX_FAKE, MAC_TB_TITAN_RIDGE, 1,
	      "iMac Pro (2017)"),
};

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
 * Compare a table family with @id's family, which need not be NUL-terminated
 * when the caller filled struct mac_model_id by hand: never read past it.
 */
static bool mac_model_family_eq(const char *family, const struct mac_model_id *id)
{
	size_t i;

	for (i = 0; i < sizeof(id->family); i++) {
		if (family[i] != id->family[i])
			return false;
		if (family[i] == '\0')
			return true;
	}
	return false;
}

const struct mac_model_info *mac_model_lookup(const struct mac_model_id *id)
{
	size_t i;

	if (!id)
		return NULL;

	for (i = 0; i < ARRAY_SIZE(mac_models); i++) {
		const struct mac_model_info *m = &mac_models[i];

		if (m->major == id->major && m->minor == id->minor &&
		    mac_model_family_eq(m->family, id))
			return m;
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
