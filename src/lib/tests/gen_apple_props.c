// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the synthetic sample blobs of apple_props_samples.h into a
 * directory: the seed corpus of fuzz_apple_props and the inputs of the
 * apple-props tool tests (all valid but dup_key.bin, whose node repeats a
 * key). No bytes from a real Mac.
 *
 *   gen_apple_props DIR
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apple_props_samples.h"

/* PciRoot(0x0)/Pci(0x1b,0x0) with "ab" = 01 02 and "c" (boolean). */
static const struct sample_node sample_small[] = {
	{ .text = "PciRoot(0x0)/Pci(0x1b,0x0)",
	  .props = { { "ab", "\x01\x02", 2 }, { "c", NULL, 0 } } },
	{ NULL }
};

static const struct sample_node sample_none[] = { { NULL } };

/*
 * Invalid: small with "ab" once more at offset 70 (the encoder does not
 * look for repeated keys, the parser rejects them).
 */
static const struct sample_node sample_dup_key[] = {
	{ .text = "PciRoot(0x0)/Pci(0x1b,0x0)",
	  .props = { { "ab", "\x01\x02", 2 }, { "c", NULL, 0 }, { "ab", "\x03", 1 } } },
	{ NULL }
};

static const struct {
	const char *name;
	const struct sample_node *nodes;
} samples[] = {
	{ "tb_gpu.bin", sample_tb_gpu },
	{ "hda.bin", &sample_tb_gpu[2] },
	{ "exotic.bin", sample_exotic },
	{ "small.bin", sample_small },
	{ "empty.bin", sample_none },
	{ "dup_key.bin", sample_dup_key },
};

static const char * const texts[] = {
	"PciRoot(0x0)/Pci(0x1,0x0)/Pci(0x0,0x0)/Pci(0x0,0x0)/Pci(0x0,0x0)",
	"PcieRoot(0x1)/Pci(0x1c,0x2)",
	"Acpi(PNP0C09,0x0)",
	"Acpi(0x12345678,0x1)",
	"VenHw(91BD12FE-F6C3-44FB-A5B7-5122AB303AE0,beef)",
	"VenMsg(4299611B-4CC9-43DF-882B-2A0707A4A95F,0011)/Pci(0x1,0x0)",
	"Path(5,1,abcd),PciRoot(0x1)",
	"Path(2,2,d041080a00000000d041030a000000)",
	"Path(3,11,00112233445500000000000000000000000000000000000000000000000000000001)",
};

int main(int argc, char **argv)
{
	char path[4096];
	size_t i, len;
	FILE *f;
	u8 *blob;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	/* device-path text seeds */
	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		snprintf(path, sizeof(path), "%s/path%zu.txt", argv[1], i);
		f = fopen(path, "w");
		if (!f || fputs(texts[i], f) < 0 || fclose(f)) {
			perror(path);
			return 1;
		}
	}
	for (i = 0; i < ARRAY_SIZE(samples); i++) {
		blob = sample_encode(samples[i].nodes, &len);
		if (!blob) {
			fprintf(stderr, "%s: cannot encode %s\n", argv[0], samples[i].name);
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%s", argv[1], samples[i].name);
		f = fopen(path, "wb");
		if (!f || fwrite(blob, 1, len, f) != len || fclose(f)) {
			perror(path);
			return 1;
		}
		free(blob);
	}
	return 0;
}
