// SPDX-License-Identifier: GPL-2.0
/*
 * Finding a device's own GPE methods in a table's AML.
 *
 * Copyright (C) 2026 The macsupport developers
 */

#include "macsupport/aml_gpe.h"

/**
 * DOC: AML walk for a root port's plug GPE
 *
 * Apple's Thunderbolt 3 tables (Alpine Ridge) say which GPE fires on a plug
 * only by where they write its method: Scope (<root port>) { Scope (\_GPE)
 * { Method (_Lxx) } }. ACPICA loads the method as \_GPE._Lxx and forgets
 * the nesting, so aml_find_scope_gpe() reads the table's AML itself.
 *
 * It walks the term lists the ACPI specification defines (section 20,
 * "ACPI Machine Language Specification") that can hold named objects:
 * the definition block, DefScope, DefDevice, and the bodies of DefIfElse
 * and DefElse, keeping the absolute path of the current scope. Everything
 * else at that level is stepped over whole: by its PkgLength (methods,
 * buffers, packages, fields, processors, power resources, thermal zones,
 * If/While bodies whose predicate it cannot read), or by its fixed layout
 * (DefName with a data object, DefExternal, DefOpRegion, DefCreate*Field
 * with arguments that are data, names, locals or arithmetic of them,
 * DefMutex, DefEvent, DefAlias, DefNoop). An opcode it does not know
 * at that level ends the walk (-EINVAL): the caller then knows it cannot
 * tell, instead of getting a GPE from misread bytes. Every length is
 * checked against the end of its enclosing object before it is used: the
 * table is firmware data. The walk keeps its own stack of open term lists
 * (struct aml_walk, about 1 KB in one frame) instead of recursing through
 * them: nesting costs it no kernel stack, and nesting past its bounds
 * ends it with -EINVAL.
 *
 * The plug pad. Apple's Alpine Ridge GPE method reads the RX inversion of
 * the plug pad and writes it flipped: If (\_SB.GGII (0x02020012) == One)
 * { \_SB.SGII (0x02020012, Zero) } Else { \_SB.SGII (0x02020012, One) }
 * (MacBookPro14,1's _L32), the pad number a constant the tables differ
 * in. A method body is not parsed (a call's argument count is the
 * callee's, declared elsewhere): its bytes are searched for the two
 * calls, each the absolute NameString \_SB_.GGII or \_SB_.SGII followed
 * by an integer constant as its first argument. The pad counts only if
 * both are there and every such call names the same one; anything else
 * (no call, a pad from a variable, two pads) gives none.
 */

#define AML_ROOT_CHAR		0x5c	/* '\' */
#define AML_PARENT_PREFIX	0x5e	/* '^' */
#define AML_DUAL_NAME		0x2e
#define AML_MULTI_NAME		0x2f
#define AML_NULL_NAME		0x00

#define AML_ZERO_OP		0x00
#define AML_ONE_OP		0x01
#define AML_ALIAS_OP		0x06
#define AML_NAME_OP		0x08
#define AML_BYTE_PREFIX		0x0a
#define AML_WORD_PREFIX		0x0b
#define AML_DWORD_PREFIX	0x0c
#define AML_STRING_PREFIX	0x0d
#define AML_QWORD_PREFIX	0x0e
#define AML_SCOPE_OP		0x10
#define AML_BUFFER_OP		0x11
#define AML_PACKAGE_OP		0x12
#define AML_VAR_PACKAGE_OP	0x13
#define AML_METHOD_OP		0x14
#define AML_EXTERNAL_OP		0x15
#define AML_IF_OP		0xa0
#define AML_ELSE_OP		0xa1
#define AML_WHILE_OP		0xa2
#define AML_NOOP_OP		0xa3
#define AML_ONES_OP		0xff
#define AML_EXT_PREFIX		0x5b
/* after AML_EXT_PREFIX */
#define AML_MUTEX_OP		0x01
#define AML_EVENT_OP		0x02
#define AML_REVISION_OP		0x30
#define AML_REGION_OP		0x80
#define AML_FIELD_OP		0x81
#define AML_DEVICE_OP		0x82
#define AML_PROCESSOR_OP	0x83
#define AML_POWER_RES_OP	0x84
#define AML_THERMAL_ZONE_OP	0x85
#define AML_INDEX_FIELD_OP	0x86
#define AML_BANK_FIELD_OP	0x87

/* An absolute path: segments of 4 characters, no terminator. */
struct aml_path {
	unsigned int depth;
	char seg[AML_GPE_MAX_DEPTH][4];
};

/*
 * The walk keeps its own stack of open term lists instead of recursing, so
 * that its stack use in the kernel is one bounded frame, however the table
 * nests: If/Else blocks and scopes nested deeper than AML_MAX_NESTING end
 * the walk (the real tables reach 10, MacBookPro11,3), and the paths of all
 * open scopes share AML_PATH_POOL segments. Expressions (an If's predicate)
 * are stepped over recursively, at most AML_MAX_EXPR deep.
 */
#define AML_MAX_NESTING		16
#define AML_PATH_POOL		96
#define AML_MAX_EXPR		8

/* What a term list is to the search. */
enum aml_level {
	AML_SEARCH,	/* looking for the target's scope */
	AML_TARGET,	/* the target's own term list: a Scope (\_GPE) counts */
	AML_GPE,	/* a Scope (\_GPE) of the target: its methods count */
};

/*
 * One open term list, [@p, @end): its scope's path (@depth segments from
 * @path in the pool), and, for an If/Else body (@soft), how many methods
 * had been found before it: an error inside it is forgotten with them.
 */
struct aml_frame {
	size_t p, end;
	unsigned int found_before;
	u8 path, depth;
	u8 level;	/* enum aml_level */
	bool soft;
};

/* A scope's path as the name resolver sees it. */
struct aml_scope {
	const char (*seg)[4];
	unsigned int depth;
};

struct aml_walk {
	const u8 *aml;
	aml_visit_fn visit;	/* aml_walk_objects(): every named object */
	void *ctx;
	size_t err;		/* where the walk stopped, on an error */
	struct aml_frame frame[AML_MAX_NESTING];
	unsigned int nframes;
	char pool[AML_PATH_POOL][4];
	unsigned int expr;
	struct aml_path target;
	struct aml_gpe_method *found;
	unsigned int max;
	unsigned int n;
};

/* PkgLength at @p, not past @end: the end of the object it measures. */
static int aml_pkg_end(const u8 *aml, size_t p, size_t end, size_t *obj_end)
{
	unsigned int extra, i;
	size_t len;

	if (p >= end)
		return -EINVAL;
	extra = aml[p] >> 6;
	if (p + 1 + extra > end)
		return -EINVAL;
	if (!extra) {
		len = aml[p] & 0x3f;
	} else {
		len = aml[p] & 0x0f;
		for (i = 0; i < extra; i++)
			len |= (size_t)aml[p + 1 + i] << (4 + 8 * i);
	}
	if (len < 1 + extra || len > end - p)
		return -EINVAL;
	*obj_end = p + len;
	return 0;
}

/* The bytes that follow the PkgLength at @p. */
static size_t aml_pkg_body(const u8 *aml, size_t p)
{
	return p + 1 + (aml[p] >> 6);
}

static bool aml_lead_char(u8 c)
{
	return (c >= 'A' && c <= 'Z') || c == '_';
}

static bool aml_name_char(u8 c)
{
	return aml_lead_char(c) || (c >= '0' && c <= '9');
}

/*
 * NameString at *@p, resolved against @scope: its segments go to @out (room
 * for @room) and their number to *@depth; with @out NULL it is only
 * stepped over. Advances *@p past it.
 */
static int aml_name(const u8 *aml, size_t *p, size_t end, const struct aml_scope *scope,
		    char (*out)[4], unsigned int room, unsigned int *depth)
{
	unsigned int segs, d = scope->depth, i, j;
	size_t q = *p;

	if (q >= end)
		return -EINVAL;
	if (aml[q] == AML_ROOT_CHAR) {
		d = 0;
		q++;
	} else {
		while (q < end && aml[q] == AML_PARENT_PREFIX) {
			if (!d)
				return -EINVAL;
			d--;
			q++;
		}
	}
	if (q >= end)
		return -EINVAL;
	if (aml[q] == AML_NULL_NAME) {
		segs = 0;
		q++;
	} else if (aml[q] == AML_DUAL_NAME) {
		segs = 2;
		q++;
	} else if (aml[q] == AML_MULTI_NAME) {
		if (q + 1 >= end)
			return -EINVAL;
		segs = aml[q + 1];
		q += 2;
	} else {
		segs = 1;
	}
	if (segs > end - q || 4 * segs > end - q || d + segs > AML_GPE_MAX_DEPTH)
		return -EINVAL;
	if (out) {
		if (d + segs > room)
			return -EINVAL;
		memcpy(out, scope->seg, 4 * d);
	}
	for (i = 0; i < segs; i++, q += 4) {
		if (!aml_lead_char(aml[q]))
			return -EINVAL;
		for (j = 1; j < 4; j++)
			if (!aml_name_char(aml[q + j]))
				return -EINVAL;
		if (out)
			memcpy(out[d + i], &aml[q], 4);
	}
	*p = q;
	if (depth)
		*depth = d + segs;
	return 0;
}

/* Step over a NameString at *@p. */
static int aml_skip_name(const u8 *aml, size_t *p, size_t end, const struct aml_scope *scope)
{
	return aml_name(aml, p, end, scope, NULL, 0, NULL);
}

/* Operand counts of the expression opcodes a TermArg may hold here. */
struct aml_expr_op {
	u8 op;
	u8 operands;	/* TermArgs */
	u8 targets;	/* Targets (SuperName or NullName) */
};

static const struct aml_expr_op aml_expr_ops[] = {
	{ 0x72, 2, 1 },	/* Add */
	{ 0x73, 2, 1 },	/* Concatenate */
	{ 0x74, 2, 1 },	/* Subtract */
	{ 0x77, 2, 1 },	/* Multiply */
	{ 0x78, 2, 2 },	/* Divide */
	{ 0x79, 2, 1 },	/* ShiftLeft */
	{ 0x7a, 2, 1 },	/* ShiftRight */
	{ 0x7b, 2, 1 },	/* And */
	{ 0x7c, 2, 1 },	/* NAnd */
	{ 0x7d, 2, 1 },	/* Or */
	{ 0x7e, 2, 1 },	/* NOr */
	{ 0x7f, 2, 1 },	/* XOr */
	{ 0x80, 1, 1 },	/* Not */
	{ 0x81, 1, 1 },	/* FindSetLeftBit */
	{ 0x82, 1, 1 },	/* FindSetRightBit */
	{ 0x83, 1, 0 },	/* DerefOf */
	{ 0x85, 2, 1 },	/* Mod */
	{ 0x90, 2, 0 },	/* LAnd */
	{ 0x91, 2, 0 },	/* LOr */
	{ 0x92, 1, 0 },	/* LNot */
	{ 0x93, 2, 0 },	/* LEqual */
	{ 0x94, 2, 0 },	/* LGreater */
	{ 0x95, 2, 0 },	/* LLess */
};

static int aml_skip_arg(struct aml_walk *w, size_t *p, size_t end,
			const struct aml_scope *scope);

/* A Target at *@p: NullName, a local or argument, Debug, or a name. */
static int aml_skip_target(struct aml_walk *w, size_t *p, size_t end,
			   const struct aml_scope *scope)
{
	const u8 *aml = w->aml;

	if (*p >= end)
		return -EINVAL;
	if (aml[*p] == AML_NULL_NAME || (aml[*p] >= 0x60 && aml[*p] <= 0x6e)) {
		(*p)++;
		return 0;
	}
	if (aml[*p] == AML_EXT_PREFIX && *p + 1 < end && aml[*p + 1] == 0x31) {
		*p += 2;	/* Debug */
		return 0;
	}
	return aml_skip_name(aml, p, end, scope);
}

/*
 * A TermArg at *@p, stepped over: a data object, a local or argument, an
 * arithmetic or logical expression of them, or a name (a reference, or a
 * method call taken to have no arguments). What DefName, DefOpRegion and
 * an If's predicate hold in the tables this reads.
 */
static int aml_skip_arg(struct aml_walk *w, size_t *p, size_t end,
			const struct aml_scope *scope)
{
	const u8 *aml = w->aml;
	size_t q = *p, obj_end;
	unsigned int i, k;
	int ret = 0;

	if (q >= end)
		return -EINVAL;
	switch (aml[q]) {
	case AML_ZERO_OP:
	case AML_ONE_OP:
	case AML_ONES_OP:
		*p = q + 1;
		return 0;
	case AML_BYTE_PREFIX:
		q += 2;
		break;
	case AML_WORD_PREFIX:
		q += 3;
		break;
	case AML_DWORD_PREFIX:
		q += 5;
		break;
	case AML_QWORD_PREFIX:
		q += 9;
		break;
	case AML_STRING_PREFIX:
		for (q++; q < end && aml[q]; q++)
			;
		if (q >= end)
			return -EINVAL;
		q++;
		break;
	case AML_BUFFER_OP:
	case AML_PACKAGE_OP:
	case AML_VAR_PACKAGE_OP:
		if (aml_pkg_end(aml, q + 1, end, &obj_end))
			return -EINVAL;
		q = obj_end;
		break;
	case AML_EXT_PREFIX:
		if (q + 1 >= end || aml[q + 1] != AML_REVISION_OP)
			return -EINVAL;
		q += 2;
		break;
	default:
		if (aml[q] >= 0x60 && aml[q] <= 0x6e) {	/* Local0-7, Arg0-6 */
			q++;
			break;
		}
		for (i = 0; i < ARRAY_SIZE(aml_expr_ops); i++)
			if (aml_expr_ops[i].op == aml[q])
				break;
		if (i == ARRAY_SIZE(aml_expr_ops)) {
			if (aml[q] != AML_ROOT_CHAR && aml[q] != AML_PARENT_PREFIX &&
			    aml[q] != AML_DUAL_NAME && aml[q] != AML_MULTI_NAME &&
			    !aml_lead_char(aml[q]))
				return -EINVAL;
			return aml_skip_name(aml, p, end, scope);
		}
		if (++w->expr > AML_MAX_EXPR) {
			w->expr--;
			return -EINVAL;
		}
		q++;
		for (k = 0; !ret && k < aml_expr_ops[i].operands; k++)
			ret = aml_skip_arg(w, &q, end, scope);
		for (k = 0; !ret && k < aml_expr_ops[i].targets; k++)
			ret = aml_skip_target(w, &q, end, scope);
		w->expr--;
		if (ret)
			return ret;
		break;
	}
	if (q > end)
		return -EINVAL;
	*p = q;
	return 0;
}

/* _Lxx or _Exx, xx hexadecimal: its number and trigger. */
static bool aml_gpe_name(const char seg[4], struct aml_gpe_method *m)
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
	m->gpe = v;
	m->level = seg[1] == 'L';
	return true;
}

/* Whether the @depth segments at @at in the pool are the target's path. */
static bool aml_is_target(const struct aml_walk *w, unsigned int at, unsigned int depth)
{
	return depth == w->target.depth && !memcmp(w->pool[at], w->target.seg, 4 * depth);
}

/*
 * Open the term list [@p, @end) in the scope of the @depth segments at @path
 * in the pool. An If/Else body (@soft) shares its parent's path.
 */
static int aml_push(struct aml_walk *w, size_t p, size_t end, unsigned int path,
		    unsigned int depth, enum aml_level level, bool soft)
{
	struct aml_frame *f;

	if (w->nframes == AML_MAX_NESTING)
		return -EINVAL;
	f = &w->frame[w->nframes++];
	f->p = p;
	f->end = end;
	f->path = path;
	f->depth = depth;
	f->found_before = w->n;
	f->level = level;
	f->soft = soft;
	return 0;
}

/*
 * A named scope (DefScope or DefDevice) of @f, its name at @name, its end at
 * @end: opened, its path placed in the pool after @f's.
 */
static int aml_open_scope(struct aml_walk *w, const struct aml_frame *f, size_t name,
			  size_t end, bool device)
{
	static const char gpe[4] = { '_', 'G', 'P', 'E' };
	const struct aml_scope scope = { w->pool + f->path, f->depth };
	unsigned int at = f->path + f->depth, depth;
	enum aml_level level;

	if (at > AML_PATH_POOL)
		return -EINVAL;

	/* nothing inside a Scope (\_GPE) of the target counts */
	if (f->level == AML_GPE)
		return aml_skip_name(w->aml, &name, end, &scope);
	if (aml_name(w->aml, &name, end, &scope, w->pool + at, AML_PATH_POOL - at, &depth))
		return -EINVAL;
	if (w->visit) {
		const struct aml_obj obj = {
			.type = device ? AML_OBJ_DEVICE : AML_OBJ_SCOPE,
			.seg = (const char (*)[4])w->pool[at], .depth = depth,
			.data = w->aml + name, .len = end - name,
		};

		w->visit(w->ctx, &obj);
	}
	/*
	 * Written as Scope (\_GPE) in the target's own list: depth 1. Anything
	 * else is searched on: a scope below may reopen the target (Scope
	 * (^RP10) inside Scope (RP09)). What it finds below the target's own
	 * list, as a Scope (\_GPE) in UPSB, is not the target's.
	 */
	if (f->level == AML_TARGET && !device && depth == 1 && !memcmp(w->pool[at], gpe, 4))
		level = AML_GPE;
	else
		level = aml_is_target(w, at, depth) ? AML_TARGET : AML_SEARCH;
	return aml_push(w, name, end, at, depth, level, false);
}

/* An integer constant at @p (before @end) into *@v. */
static bool aml_const(const u8 *aml, size_t p, size_t end, u32 *v)
{
	unsigned int n, i;

	if (p >= end)
		return false;
	switch (aml[p]) {
	case AML_ZERO_OP:
	case AML_ONE_OP:
		*v = aml[p];
		return true;
	case AML_BYTE_PREFIX:
		n = 1;
		break;
	case AML_WORD_PREFIX:
		n = 2;
		break;
	case AML_DWORD_PREFIX:
		n = 4;
		break;
	default:
		return false;
	}
	if (n > end - p - 1)
		return false;
	*v = 0;
	for (i = 0; i < n; i++)
		*v |= (u32)aml[p + 1 + i] << (8 * i);
	return true;
}

/*
 * The pad a GPE method's body [@p, @end) flips, or 0: see "The plug pad"
 * above.
 */
static u32 aml_method_pad(const u8 *aml, size_t p, size_t end)
{
	/* \_SB_.xGII: RootChar, DualNamePrefix, "_SB_", then the method's name */
	static const u8 call[] = { AML_ROOT_CHAR, AML_DUAL_NAME, '_', 'S', 'B', '_' };
	static const char * const names[] = { "GGII", "SGII" };
	unsigned int seen[2] = { 0, 0 }, k;
	u32 pad = 0, v;
	size_t q;

	for (q = p; q + sizeof(call) + 4 <= end; q++) {
		if (memcmp(&aml[q], call, sizeof(call)))
			continue;
		for (k = 0; k < 2; k++)
			if (!memcmp(&aml[q + sizeof(call)], names[k], 4))
				break;
		if (k == 2)
			continue;
		if (!aml_const(aml, q + sizeof(call) + 4, end, &v) || !v ||
		    (pad && v != pad))
			return 0;
		pad = v;
		seen[k]++;
	}
	return seen[0] && seen[1] ? pad : 0;
}

/* A method of a Scope (\_GPE) of the target, its name at @name. */
static int aml_gpe_method(struct aml_walk *w, const struct aml_scope *scope, size_t name,
			  size_t end)
{
	char seg[AML_GPE_MAX_DEPTH][4];
	struct aml_gpe_method m;
	unsigned int depth;

	if (aml_name(w->aml, &name, end, scope, seg, AML_GPE_MAX_DEPTH, &depth))
		return -EINVAL;
	if (depth && aml_gpe_name(seg[depth - 1], &m)) {
		/* after the name, MethodFlags, then the body */
		m.pad = name < end ? aml_method_pad(w->aml, name + 1, end) : 0;
		if (w->n < w->max)
			w->found[w->n] = m;
		w->n++;
	}
	return 0;
}

/*
 * A method (@name: its NameString, @end: the end of the method) or a Name
 * (@name to @data, its data object to @end) to the visitor.
 */
static int aml_visit_named(struct aml_walk *w, const struct aml_scope *scope,
			   enum aml_obj_type type, size_t name, size_t end)
{
	char seg[AML_GPE_MAX_DEPTH][4];
	struct aml_obj obj = { .type = type, .seg = (const char (*)[4])seg };

	if (aml_name(w->aml, &name, end, scope, seg, AML_GPE_MAX_DEPTH, &obj.depth))
		return -EINVAL;
	if (type == AML_OBJ_METHOD) {
		if (name >= end)
			return -EINVAL;
		obj.args = w->aml[name] & 7;	/* MethodFlags, then the body */
		name++;
	}
	obj.data = w->aml + name;
	obj.len = end - name;
	w->visit(w->ctx, &obj);
	return 0;
}

/* An extended opcode (after AML_EXT_PREFIX), as one code */
#define AML_EXT(op)		(0x100 | (op))

/*
 * The term at @f's position: stepped over, or opened as a new frame. On an
 * error *@where is the byte to blame: the term's, or for a Scope, Device or
 * Method the name's (@f's position has already moved past the object).
 */
static int aml_step(struct aml_walk *w, struct aml_frame *f, size_t *where)
{
	const struct aml_scope scope = { w->pool + f->path, f->depth };
	size_t p = f->p, end = f->end, obj_end, q;
	const u8 *aml = w->aml;
	unsigned int code;
	int ret;

	*where = p;
	/* q: the first byte after the opcode */
	if (aml[p] == AML_EXT_PREFIX) {
		if (p + 1 >= end)
			return -EINVAL;
		code = AML_EXT(aml[p + 1]);
		q = p + 2;
	} else {
		code = aml[p];
		q = p + 1;
	}

	switch (code) {
	case AML_SCOPE_OP:
	case AML_EXT(AML_DEVICE_OP):
		if (aml_pkg_end(aml, q, end, &obj_end))
			return -EINVAL;
		f->p = obj_end;
		*where = aml_pkg_body(aml, q);
		return aml_open_scope(w, f, aml_pkg_body(aml, q), obj_end, code != AML_SCOPE_OP);
	case AML_METHOD_OP:
		if (aml_pkg_end(aml, q, end, &obj_end))
			return -EINVAL;
		f->p = obj_end;
		*where = aml_pkg_body(aml, q);
		if (w->visit && aml_visit_named(w, &scope, AML_OBJ_METHOD, aml_pkg_body(aml, q),
						obj_end))
			return -EINVAL;
		if (f->level == AML_GPE)
			return aml_gpe_method(w, &scope, aml_pkg_body(aml, q), obj_end);
		return 0;
	case AML_BUFFER_OP:
	case AML_PACKAGE_OP:
	case AML_VAR_PACKAGE_OP:
	case AML_WHILE_OP:
	case AML_EXT(AML_FIELD_OP):
	case AML_EXT(AML_PROCESSOR_OP):
	case AML_EXT(AML_POWER_RES_OP):
	case AML_EXT(AML_THERMAL_ZONE_OP):
	case AML_EXT(AML_INDEX_FIELD_OP):
	case AML_EXT(AML_BANK_FIELD_OP):
		if (aml_pkg_end(aml, q, end, &obj_end))
			return -EINVAL;
		f->p = obj_end;
		return 0;
	case AML_IF_OP:
	case AML_ELSE_OP:
		if (aml_pkg_end(aml, q, end, &obj_end))
			return -EINVAL;
		f->p = obj_end;
		q = aml_pkg_body(aml, q);
		/*
		 * A block whose predicate it cannot read, or nested too deep
		 * (code that runs when the table loads), is stepped over; one
		 * whose body it cannot read is too, and what it found there
		 * forgotten (aml_walk()).
		 */
		if (code == AML_IF_OP && aml_skip_arg(w, &q, obj_end, &scope))
			return 0;
		aml_push(w, q, obj_end, f->path, f->depth, f->level, true);
		return 0;
	case AML_NAME_OP:
		ret = aml_skip_name(aml, &q, end, &scope) ||
		      aml_skip_arg(w, &q, end, &scope);
		if (!ret && w->visit)
			ret = aml_visit_named(w, &scope, AML_OBJ_NAME, p + 1, q);
		break;
	case AML_ALIAS_OP:
		ret = aml_skip_name(aml, &q, end, &scope) ||
		      aml_skip_name(aml, &q, end, &scope);
		break;
	case 0x8a:	/* CreateDWordField: SourceBuff ByteIndex NameString */
	case 0x8b:	/* CreateWordField */
	case 0x8c:	/* CreateByteField */
	case 0x8d:	/* CreateBitField */
	case 0x8f:	/* CreateQWordField */
	case AML_EXT(0x13):	/* CreateField: SourceBuff BitIndex NumBits NameString */
		ret = aml_skip_arg(w, &q, end, &scope) || aml_skip_arg(w, &q, end, &scope) ||
		      (code == AML_EXT(0x13) && aml_skip_arg(w, &q, end, &scope)) ||
		      aml_skip_name(aml, &q, end, &scope);
		break;
	case AML_EXTERNAL_OP:	/* NameString ObjectType ArgumentCount */
		ret = aml_skip_name(aml, &q, end, &scope) || end - q < 2;
		q += 2;
		break;
	case AML_EXT(AML_REGION_OP):	/* NameString RegionSpace Offset Length */
		ret = aml_skip_name(aml, &q, end, &scope) || q >= end;
		q++;
		ret = ret || aml_skip_arg(w, &q, end, &scope) ||
		      aml_skip_arg(w, &q, end, &scope);
		break;
	case AML_EXT(AML_MUTEX_OP):	/* NameString SyncFlags */
		ret = aml_skip_name(aml, &q, end, &scope) || q >= end;
		q++;
		break;
	case AML_EXT(AML_EVENT_OP):
		ret = aml_skip_name(aml, &q, end, &scope);
		break;
	case AML_NOOP_OP:	/* MacPro3,1's and 5,1's CPU SSDTs end in them */
		ret = 0;
		break;
	default:
		return -EINVAL;
	}
	/* the objects of a fixed layout, stepped over to q */
	if (ret)
		return -EINVAL;
	f->p = q;
	return 0;
}

/*
 * The whole definition block, [0, @len), term by term. An error inside an
 * If/Else body forgets what that body found and goes on after it; anywhere
 * else it ends the walk.
 */
static int aml_walk(struct aml_walk *w, size_t len)
{
	struct aml_frame *f;
	size_t where;

	aml_push(w, 0, len, 0, 0, AML_SEARCH, false);
	while (w->nframes) {
		f = &w->frame[w->nframes - 1];
		if (f->p >= f->end) {
			w->nframes--;
			continue;
		}
		if (!aml_step(w, f, &where))
			continue;
		w->err = where;
		while (w->nframes && !w->frame[w->nframes - 1].soft)
			w->nframes--;
		if (!w->nframes)
			return -EINVAL;
		w->n = w->frame[--w->nframes].found_before;
	}
	return 0;
}

/* "\_SB_.PCI0.RP05" into segments; short segments are padded with '_'. */
static int aml_parse_path(const char *s, struct aml_path *path)
{
	unsigned int i;

	path->depth = 0;
	if (*s++ != '\\')
		return -EINVAL;
	while (*s) {
		if (path->depth == AML_GPE_MAX_DEPTH)
			return -EINVAL;
		for (i = 0; i < 4 && *s && *s != '.'; i++)
			path->seg[path->depth][i] = *s++;
		if (!i || (*s && *s != '.'))
			return -EINVAL;
		for (; i < 4; i++)
			path->seg[path->depth][i] = '_';
		path->depth++;
		if (*s == '.')
			s++;
	}
	return path->depth ? 0 : -EINVAL;
}

int aml_find_scope_gpe(const u8 *aml, size_t len, const char *path,
		       struct aml_gpe_method *found, unsigned int max)
{
	struct aml_walk w = { .aml = aml, .found = found, .max = max };

	if (!aml || aml_parse_path(path, &w.target))
		return -EINVAL;
	if (aml_walk(&w, len))
		return -EINVAL;
	return (int)w.n;
}

int aml_walk_objects(const u8 *aml, size_t len, aml_visit_fn visit, void *ctx,
		     size_t *err)
{
	struct aml_walk w = { .aml = aml, .visit = visit, .ctx = ctx };

	if (!aml || !visit)
		return -EINVAL;
	/* no path is this deep: nothing is the target, no GPE method found */
	w.target.depth = AML_GPE_MAX_DEPTH + 1;
	if (!aml_walk(&w, len))
		return 0;
	if (err)
		*err = w.err;
	return -EINVAL;
}

int aml_table_check(const u8 *table, size_t len, u32 *length)
{
	u32 n, i;
	u8 sum = 0;

	if (!table || len < AML_TABLE_HEADER_LEN)
		return -ENODATA;
	/* the header's Length field, little-endian at offset 4 */
	n = (u32)table[4] | (u32)table[5] << 8 | (u32)table[6] << 16 | (u32)table[7] << 24;
	*length = n;
	if (n < AML_TABLE_HEADER_LEN)
		return -EINVAL;
	if (n > len)
		return -ENODATA;
	for (i = 0; i < n; i++)
		sum += table[i];
	return sum ? -EBADMSG : 0;
}

int aml_int_const(const u8 *data, size_t len, u64 *v)
{
	unsigned int n, i;

	if (!len)
		return -EINVAL;
	switch (data[0]) {
	case AML_ZERO_OP:
	case AML_ONE_OP:
		*v = data[0];
		return 1;
	case AML_ONES_OP:
		*v = ~(u64)0;
		return 1;
	case AML_BYTE_PREFIX:
		n = 1;
		break;
	case AML_WORD_PREFIX:
		n = 2;
		break;
	case AML_DWORD_PREFIX:
		n = 4;
		break;
	case AML_QWORD_PREFIX:
		n = 8;
		break;
	default:
		return -EINVAL;
	}
	if (n > len - 1)
		return -EINVAL;
	*v = 0;
	for (i = 0; i < n; i++)
		*v |= (u64)data[1 + i] << (8 * i);
	return (int)n + 1;
}

int aml_pkg_object(const u8 *data, size_t len, const u8 **body, size_t *body_len)
{
	size_t end;

	if (len < 2 || (data[0] != AML_BUFFER_OP && data[0] != AML_PACKAGE_OP &&
			data[0] != AML_VAR_PACKAGE_OP))
		return -EINVAL;
	if (aml_pkg_end(data, 1, len, &end))
		return -EINVAL;
	*body = data + aml_pkg_body(data, 1);
	*body_len = end - aml_pkg_body(data, 1);
	return 0;
}

int aml_table_scope_gpe(const u8 *table, size_t len, const char *path,
			struct aml_gpe_method *found, unsigned int max)
{
	u32 length;

	if (!table || len < AML_TABLE_HEADER_LEN)
		return -EINVAL;
	/* the header's Length field, little-endian at offset 4 */
	length = (u32)table[4] | (u32)table[5] << 8 | (u32)table[6] << 16 |
		 (u32)table[7] << 24;
	if (length < AML_TABLE_HEADER_LEN || length > len)
		return -EINVAL;
	return aml_find_scope_gpe(table + AML_TABLE_HEADER_LEN, length - AML_TABLE_HEADER_LEN,
				  path, found, max);
}
