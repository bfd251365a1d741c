// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for src/lib/mac_fw.c and the AML walk under it
 * (src/lib/aml_gpe.c): the table reader of macsupport-report --firmware
 * (make fuzz).
 *
 * Each input is tried twice: as it is (the header checks: a header cut
 * short, a Length past the end, a bad checksum, another signature), and
 * with its header made right (Length the input's size, the checksum
 * fixed, "SSDT" or "DSDT"), so that the walk and the checker see every
 * byte of AML the fuzzer makes up. Each table then goes through
 * mac_fw_finish() against a known model with quirk rows and gmux
 * (MacBookPro11,3) and against none. Besides what ASan and UBSan catch, it
 * checks that a refused table says why, and where within it, and leaves
 * nothing recorded; and that every line the checker writes is
 * NUL-terminated within its buffer.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "macsupport/mac_fw.h"

static struct mac_fw fw;

static void check_strings(void)
{
	unsigned int i;

	for (i = 0; i < fw.ndiffs; i++)
		if (!memchr(fw.diffs[i], 0, sizeof(fw.diffs[i])))
			__builtin_trap();
	for (i = 0; i < fw.nchecks; i++)
		if (!memchr(fw.checks[i].found, 0, sizeof(fw.checks[i].found)))
			__builtin_trap();
	for (i = 0; i < fw.ntb; i++)
		if (!memchr(fw.tb[i].nhi, 0, sizeof(fw.tb[i].nhi)) || !fw.tb[i].kind)
			__builtin_trap();
	if (!memchr(fw.gmux.path, 0, sizeof(fw.gmux.path)))
		__builtin_trap();
}

static void try_table(const uint8_t *t, size_t size)
{
	static const char *const product = "MacBookPro11,3";
	struct mac_fw_error err;
	struct mac_model_id id;

	mac_fw_init(&fw);
	if (mac_fw_add_table(&fw, t, size, &err)) {
		if (!err.msg[0] || err.offset > size || fw.ntables || fw.nobjs)
			__builtin_trap();
	} else if (fw.ntables != 1) {
		__builtin_trap();
	}
	if (mac_model_parse(product, &id))
		__builtin_trap();
	mac_fw_finish(&fw, mac_model_lookup(&id), product);
	check_strings();
	mac_fw_finish(&fw, NULL, NULL);
	check_strings();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *t;
	uint8_t sum = 0;
	size_t i;

	/* exactly the input's bytes, in a buffer of its size (ASan's bounds) */
	t = malloc(size ? size : 1);
	if (!t)
		abort();
	memcpy(t, data, size);
	try_table(t, size);
	if (size >= AML_TABLE_HEADER_LEN) {
		memcpy(t, size & 1 ? "DSDT" : "SSDT", 4);
		t[4] = (uint8_t)size;
		t[5] = (uint8_t)(size >> 8);
		t[6] = (uint8_t)(size >> 16);
		t[7] = (uint8_t)(size >> 24);
		t[9] = 0;
		for (i = 0; i < size; i++)
			sum += t[i];
		t[9] = (uint8_t)-sum;
		try_table(t, size);
	}
	free(t);
	return 0;
}
