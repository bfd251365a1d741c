// SPDX-License-Identifier: GPL-2.0
/*
 * aml-gpe-scan - the GPE methods each given scope declares, in compiled ACPI
 * tables (for "make tb3-tables", against real Macs' tables):
 *
 *   aml-gpe-scan PATH TABLE.aml...
 *
 * Prints "PATH _Lxx" or "PATH _Exx" per method found in any table, with
 * " pad 0xPPPPPPPP" where the method flips a pad's RX inversion, or
 * "PATH none"; exits 1 if a table could not be walked.
 */

#include <stdio.h>
#include <stdlib.h>

#include "macsupport/aml_gpe.h"

int main(int argc, char **argv)
{
	static u8 buf[1 << 22];
	struct aml_gpe_method m[8];
	int i, j, r, total = 0, rc = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: %s PATH TABLE.aml...\n", argv[0]);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		size_t n;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		/* as tb_macpm does: a header-only table declares nothing */
		r = aml_table_scope_gpe(buf, n, argv[1], m, 8);
		if (r < 0) {
			fprintf(stderr, "%s: truncated, or cannot walk its AML\n", argv[i]);
			rc = 1;
			continue;
		}
		for (j = 0; j < r && j < 8; j++) {
			printf("%s _%c%02X", argv[1], m[j].level ? 'L' : 'E', m[j].gpe);
			if (m[j].pad)
				printf(" pad 0x%08X", m[j].pad);
			printf("\n");
		}
		total += r;
	}
	if (!total)
		printf("%s none\n", argv[1]);
	return rc;
}
