// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for src/lib/apple_props.c (make fuzz).
 *
 * Each input is tried as a blob and as device-path text. Besides what
 * ASan and UBSan catch, it checks that a blob that validates is walked
 * exactly as validated (same counts), converts every path and key without
 * error, has no node with more than APPLE_PROPS_MAX_NODE_PROPS properties
 * or with a key twice (compared here the slow way, every pair), and
 * re-encodes to the same bytes; and that device-path text that parses
 * prints back to text that parses to the same bytes. The seeds include a
 * blob with a repeated key (dup_key.bin of gen_apple_props).
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "macsupport/apple_props.h"

struct fuzz_ctx {
	struct apple_props_enc enc;
	u32 nodes;
	u32 props;
	u32 node_props;
	struct apple_props_prop keys[APPLE_PROPS_MAX_NODE_PROPS];
};

static int fuzz_node(void *ctx, const struct apple_props_node *node)
{
	struct fuzz_ctx *c = ctx;
	struct apple_dp_route route;
	char small[16], *text;
	int n;

	n = apple_dp_to_text(node->path, node->path_len, small, sizeof(small));
	if (n < 0 || strlen(small) != (size_t)(n < 15 ? n : 15))
		__builtin_trap();
	text = malloc((size_t)n + 1);
	if (!text)
		abort();
	if (apple_dp_to_text(node->path, node->path_len, text, (size_t)n + 1) != n ||
	    strlen(text) != (size_t)n)
		__builtin_trap();
	free(text);
	apple_dp_to_route(node->path, node->path_len, &route);
	c->nodes++;
	c->node_props = 0;
	return apple_props_enc_node(&c->enc, node->path, node->path_len);
}

static int fuzz_prop(void *ctx, const struct apple_props_node *node,
		     const struct apple_props_prop *prop)
{
	struct fuzz_ctx *c = ctx;
	size_t size = 3 * (prop->key_len / 2) + 1;
	char *key = malloc(size);
	u32 i;
	int ret;

	(void)node;
	if (!key)
		abort();
	/* a validated node holds few enough properties, each key once */
	if (c->node_props >= APPLE_PROPS_MAX_NODE_PROPS)
		__builtin_trap();
	for (i = 0; i < c->node_props; i++)
		if (c->keys[i].key_len == prop->key_len &&
		    !memcmp(c->keys[i].key, prop->key, prop->key_len))
			__builtin_trap();
	c->keys[c->node_props++] = *prop;
	ret = apple_props_key_to_utf8(prop->key, prop->key_len, key, size);
	if (ret < 0)
		__builtin_trap();	/* a validated key always converts */
	c->props++;
	ret = apple_props_enc_prop(&c->enc, key, prop->value, prop->value_len);
	free(key);
	return ret;
}

static const struct apple_props_ops fuzz_ops = {
	.node = fuzz_node,
	.prop = fuzz_prop,
};

static void fuzz_blob(const u8 *data, size_t size)
{
	struct apple_props_info info;
	struct apple_props_error err;
	struct fuzz_ctx c;
	size_t len;
	u8 *out;
	int ret;

	ret = apple_props_validate(data, size, &info, &err);
	if (ret) {
		if (!err.msg || err.code == APPLE_PROPS_OK || err.offset > size)
			__builtin_trap();
		if (apple_props_parse(data, size, &fuzz_ops, &c, NULL) != ret)
			__builtin_trap();
		return;
	}
	out = malloc(size);
	if (!out)
		abort();
	memset(&c, 0, sizeof(c));
	apple_props_enc_init(&c.enc, out, size);
	if (apple_props_parse(data, size, &fuzz_ops, &c, &err))
		__builtin_trap();
	if (c.nodes != info.nodes || c.props != info.props)
		__builtin_trap();
	if (apple_props_enc_finish(&c.enc, &len) || len != size || memcmp(out, data, size))
		__builtin_trap();
	free(out);
}

static void fuzz_text(const u8 *data, size_t size)
{
	u8 bin[4096], bin2[4096];
	char *s, text[16384];
	size_t len, len2;
	int n;

	if (size > 4096)
		return;
	s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	if (apple_dp_from_text(s, bin, sizeof(bin), &len, NULL)) {
		free(s);
		return;
	}
	n = apple_dp_to_text(bin, len, text, sizeof(text));
	if (n < 0 || (size_t)n >= sizeof(text))
		__builtin_trap();
	/* Text that parses back (not AcpiEx/USB/MAC) gives the same bytes. */
	if (!apple_dp_from_text(text, bin2, sizeof(bin2), &len2, NULL) &&
	    (len2 != len || memcmp(bin, bin2, len)))
		__builtin_trap();
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len;

	fuzz_blob(data, size);
	apple_dp_check(data, size, &len, NULL);
	fuzz_text(data, size);
	return 0;
}
