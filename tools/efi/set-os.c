// SPDX-License-Identifier: GPL-2.0
/*
 * set-os.c - tell a Mac's firmware that macOS is booting, then chain-load
 *
 * DOC: Overview
 *
 * Dual-GPU MacBook Pros from 2013 on (MacBookPro11,3, 11,5, 13,3, 14,3,
 * 15,1, 15,3, 16,1, 16,4) hide or power off the integrated GPU unless the
 * boot loader says, through Apple's set_os protocol, that macOS is being
 * booted. Linux's own EFI stub does that from 6.11 on; for older kernels,
 * and for kernels started by a loader that is not the EFI stub, this EFI
 * application does it and then starts the real boot loader or kernel:
 *
 *  1. It looks for the set_os protocol (GUID
 *     C5C5DA95-7D5C-45E6-B2F1-3FD52BB10077). Absent: it says so and goes
 *     on to step 2 (nothing is lost on a Mac that does not need it).
 *     Present: if the protocol's Version is 2 or more it calls
 *     SetOsVendor("Apple Inc."), then if Version is above 0 it calls
 *     SetOsVersion("Mac OS X 10.9"). That is the order of the kernel's EFI
 *     stub (6.11, "x86/efistub: Call Apple set_os protocol on dual GPU
 *     Intel Macs"), so a machine behaves the same whether this app or a
 *     newer kernel made the calls; apple_set_os.efi calls version first.
 *     The firmware only records the two strings, and no Mac is known to
 *     care about the order.
 *  2. With load options (a UCS-2 command line, e.g. from
 *     "efibootmgr --unicode"), their first word is the path of the image
 *     to start, on the volume this app was loaded from, and the rest its
 *     load options: "\EFI\debian\grubx64.efi", or "\vmlinuz
 *     initrd=\initrd.img root=/dev/sda2". When started from the UEFI shell,
 *     a first word naming this app itself is skipped.
 *  3. Without a path it starts the boot entry the firmware would have
 *     started next: BootNext if set (deleted first, as the firmware does),
 *     else the entries of BootOrder after BootCurrent (this app's own
 *     entry), skipping inactive ones, those that are not of the boot
 *     category, and entries that point back at this app. Short-form
 *     device paths (a partition's HD() node, or a bare file path) and
 *     removable-media entries (a device without a file:
 *     \EFI\BOOT\BOOTX64.EFI) are expanded as the firmware would. An entry
 *     that cannot be loaded is reported and the next one tried.
 *
 * Every message goes to the console, prefixed "set-os: ". When nothing
 * could be started the app waits five seconds, so that the message can be
 * read, and returns the error to the firmware, which then tries its next
 * boot option. An image that returns is reported with its status.
 */

#include <efi.h>
#include <efilib.h>

#define SET_OS_VENDOR		"Apple Inc."
#define SET_OS_VERSION		"Mac OS X 10.9"

#define REMOVABLE_FILE		L"\\EFI\\BOOT\\BOOTX64.EFI"
#define ERROR_STALL_US		(5 * 1000 * 1000)
#define MAX_OPTIONS_CHARS	4096

/* UEFI 2.x load option attributes (gnu-efi defines only ACTIVE). */
#define LOAD_OPT_ACTIVE		0x00000001
#define LOAD_OPT_CATEGORY	0x00001f00
#define LOAD_OPT_CATEGORY_BOOT	0x00000000

static EFI_GUID set_os_guid = {
	0xc5c5da95, 0x7d5c, 0x45e6, { 0xb2, 0xf1, 0x3f, 0xd5, 0x2b, 0xb1, 0x00, 0x77 }
};

/* Apple's set_os protocol, as the kernel's EFI stub declares it. */
struct apple_set_os {
	UINT64 version;
	EFI_STATUS (EFIAPI *set_os_version)(CHAR8 *version);
	EFI_STATUS (EFIAPI *set_os_vendor)(CHAR8 *vendor);
};

static EFI_HANDLE self_image;
static EFI_LOADED_IMAGE *self;
static BOOLEAN image_started;	/* StartImage was called for some image */

/* --- set_os -------------------------------------------------------------- */

static void call_set_os(void)
{
	struct apple_set_os *p = NULL;
	EFI_STATUS status;

	status = uefi_call_wrapper(BS->LocateProtocol, 3, &set_os_guid, NULL, (VOID **)&p);
	if (EFI_ERROR(status) || !p) {
		Print(L"set-os: Apple set_os protocol not present (%r): not a Mac that needs it; chain-loading anyway\n",
		      EFI_ERROR(status) ? status : EFI_NOT_FOUND);
		return;
	}
	Print(L"set-os: Apple set_os protocol version %ld\n", p->version);
	if (p->version >= 2) {
		if (!p->set_os_vendor) {
			Print(L"set-os: SetOsVendor missing from the protocol: not called\n");
		} else {
			status = p->set_os_vendor((CHAR8 *)SET_OS_VENDOR);
			Print(L"set-os: SetOsVendor(\"%a\"): %r\n", SET_OS_VENDOR, status);
		}
	}
	if (p->version > 0) {
		if (!p->set_os_version) {
			Print(L"set-os: SetOsVersion missing from the protocol: not called\n");
		} else {
			status = p->set_os_version((CHAR8 *)SET_OS_VERSION);
			Print(L"set-os: SetOsVersion(\"%a\"): %r\n", SET_OS_VERSION, status);
		}
	} else {
		Print(L"set-os: protocol version 0: nothing to call\n");
	}
}

/* --- device paths -------------------------------------------------------- */

/*
 * Bytes of @dp up to and including its End-Entire node, 0 if that is not
 * within @limit: every node the loops below walk is then inside @limit.
 */
static UINTN dp_size(EFI_DEVICE_PATH *dp, UINTN limit)
{
	UINT8 *p = (UINT8 *)dp;
	UINTN off = 0, len;

	while (off + 4 <= limit) {
		len = p[off + 2] | (p[off + 3] << 8);
		if (len < 4 || len > limit - off)
			return 0;
		off += len;
		if ((p[off - len] & 0x7f) == END_DEVICE_PATH_TYPE &&
		    p[off - len + 1] == END_ENTIRE_DEVICE_PATH_SUBTYPE)
			return off;
	}
	return 0;
}

static BOOLEAN is_node(EFI_DEVICE_PATH *dp, UINT8 type, UINT8 subtype)
{
	return DevicePathType(dp) == type && DevicePathSubType(dp) == subtype;
}

static BOOLEAN has_node(EFI_DEVICE_PATH *dp, UINT8 type, UINT8 subtype)
{
	for (; !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp))
		if (is_node(dp, type, subtype))
			return TRUE;
	return FALSE;
}

/* The last file-path node of @dp, or NULL. */
static FILEPATH_DEVICE_PATH *last_file_node(EFI_DEVICE_PATH *dp)
{
	FILEPATH_DEVICE_PATH *f = NULL;

	for (; !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp))
		if (is_node(dp, MEDIA_DEVICE_PATH, MEDIA_FILEPATH_DP))
			f = (FILEPATH_DEVICE_PATH *)dp;
	return f;
}

/* The file name after the last backslash (or colon) of @path. */
static CHAR16 *base_name(CHAR16 *path)
{
	CHAR16 *b = path;

	for (; *path; path++)
		if (*path == L'\\' || *path == L'/' || *path == L':')
			b = path + 1;
	return b;
}

/* @dp names this very app (same file name, case-insensitive). */
static BOOLEAN is_self(EFI_DEVICE_PATH *dp)
{
	FILEPATH_DEVICE_PATH *mine = self->FilePath ? last_file_node(self->FilePath) : NULL;
	FILEPATH_DEVICE_PATH *theirs = last_file_node(dp);

	return mine && theirs && !StriCmp(base_name(mine->PathName), base_name(theirs->PathName));
}

static BOOLEAN same_partition(HARDDRIVE_DEVICE_PATH *a, HARDDRIVE_DEVICE_PATH *b)
{
	return a->PartitionNumber == b->PartitionNumber && a->MBRType == b->MBRType &&
	       a->SignatureType == b->SignatureType &&
	       !CompareMem(a->Signature, b->Signature, sizeof(a->Signature));
}

/* @prefix (without its End node) is where @dp begins. */
static BOOLEAN dp_starts_with(EFI_DEVICE_PATH *dp, EFI_DEVICE_PATH *prefix)
{
	UINTN size = dp_size(prefix, 4096), have = dp_size(dp, 4096);

	return size > 4 && have >= size && !CompareMem(dp, prefix, size - 4);
}

/**
 * expand_path() - a device path LoadImage can open, as the firmware would
 * @fp: a boot entry's file path list (first instance used)
 *
 * Return: a new device path (FreePool it), or NULL if none was found.
 */
static EFI_DEVICE_PATH *expand_path(EFI_DEVICE_PATH *fp)
{
	EFI_DEVICE_PATH *dp, *node, *found = NULL;
	EFI_HANDLE *handles = NULL;
	UINTN n = 0, i;
	BOOLEAN hd;

	if (is_node(fp, MEDIA_DEVICE_PATH, MEDIA_FILEPATH_DP))
		return AppendDevicePath(DevicePathFromHandle(self->DeviceHandle), fp);
	hd = is_node(fp, MEDIA_DEVICE_PATH, MEDIA_HARDDRIVE_DP);
	/* A full path to a file, or a firmware-volume file (the UEFI shell, say). */
	if (!hd && (last_file_node(fp) || has_node(fp, MEDIA_DEVICE_PATH, MEDIA_PIWG_FW_FILE_DP)))
		return DuplicateDevicePath(fp);

	/* HD() short form, or a device without a file: search the file systems. */
	if (EFI_ERROR(LibLocateHandle(ByProtocol, &FileSystemProtocol, NULL, &n, &handles)))
		handles = NULL, n = 0;
	for (i = 0; i < n && !found; i++) {
		dp = DevicePathFromHandle(handles[i]);
		if (!dp)
			continue;
		if (!hd) {
			if (dp_starts_with(dp, fp))
				found = FileDevicePath(handles[i], REMOVABLE_FILE);
			continue;
		}
		for (node = dp; !IsDevicePathEnd(node); node = NextDevicePathNode(node)) {
			if (!is_node(node, MEDIA_DEVICE_PATH, MEDIA_HARDDRIVE_DP) ||
			    !same_partition((HARDDRIVE_DEVICE_PATH *)node, (HARDDRIVE_DEVICE_PATH *)fp))
				continue;
			if (IsDevicePathEnd(NextDevicePathNode(fp)))
				found = FileDevicePath(handles[i], REMOVABLE_FILE);
			else
				found = AppendDevicePath(dp, NextDevicePathNode(fp));
			break;
		}
	}
	/* Nothing matched: let LoadImage try it as it is (LoadFile, say). */
	if (!found && !hd)
		found = DuplicateDevicePath(fp);
	if (handles)
		FreePool(handles);
	return found;
}

/* --- starting an image --------------------------------------------------- */

/**
 * start_image() - load @path and start it with @opts
 * @what: how to name it in messages
 * @path: full device path
 * @opts: load options for the image, or NULL
 * @opts_size: bytes of @opts
 * @started: set to TRUE once StartImage was called
 *
 * Return: LoadImage's error, or what the image returned.
 */
static EFI_STATUS start_image(CHAR16 *what, EFI_DEVICE_PATH *path, VOID *opts,
			      UINTN opts_size, BOOLEAN *started)
{
	EFI_LOADED_IMAGE *li;
	EFI_HANDLE h = NULL;
	EFI_STATUS status;
	CHAR16 *text;

	*started = FALSE;
	text = DevicePathToStr(path);
	status = uefi_call_wrapper(BS->LoadImage, 6, FALSE, self_image, path, NULL, 0, &h);
	if (EFI_ERROR(status)) {
		if (status == EFI_SECURITY_VIOLATION)
			Print(L"set-os: cannot load %s (%s): refused by Secure Boot\n", what,
			      text ? text : L"?");
		else
			Print(L"set-os: cannot load %s (%s): %r\n", what, text ? text : L"?",
			      status);
		/* A refused image may still have been loaded: drop it. */
		if (h)
			uefi_call_wrapper(BS->UnloadImage, 1, h);
		goto out;
	}
	status = uefi_call_wrapper(BS->HandleProtocol, 3, h, &LoadedImageProtocol, (VOID **)&li);
	if (EFI_ERROR(status)) {
		Print(L"set-os: %s has no loaded-image protocol: %r\n", what, status);
		uefi_call_wrapper(BS->UnloadImage, 1, h);
		goto out;
	}
	if (opts && opts_size) {
		li->LoadOptions = opts;
		li->LoadOptionsSize = opts_size;
	}
	Print(L"set-os: starting %s (%s)\n", what, text ? text : L"?");
	*started = TRUE;
	image_started = TRUE;
	status = uefi_call_wrapper(BS->StartImage, 3, h, NULL, NULL);
	Print(L"set-os: %s returned: %r\n", what, status);
out:
	if (text)
		FreePool(text);
	return status;
}

/* --- a path given as load options ---------------------------------------- */

/* Load options as text: NUL-terminated copy, or NULL if they are not text. */
static CHAR16 *options_text(void)
{
	CHAR16 *in = self->LoadOptions, *out;
	UINTN n = self->LoadOptionsSize / sizeof(CHAR16), i;

	if (!in || !self->LoadOptionsSize)
		return NULL;
	if (self->LoadOptionsSize % sizeof(CHAR16) || n > MAX_OPTIONS_CHARS) {
		Print(L"set-os: load options are not a UCS-2 command line (%d bytes): ignored\n",
		      (INT32)self->LoadOptionsSize);
		return NULL;
	}
	for (i = 0; i < n && in[i]; i++) {
		if ((in[i] < 0x20 && in[i] != L'\t') || in[i] == 0x7f || in[i] >= 0xfffe) {
			Print(L"set-os: load options are not text (%d bytes): ignored\n",
			      (INT32)self->LoadOptionsSize);
			return NULL;
		}
	}
	out = AllocateZeroPool((i + 1) * sizeof(CHAR16));
	if (out)
		CopyMem(out, in, i * sizeof(CHAR16));
	return out;
}

static CHAR16 *skip_blanks(CHAR16 *s)
{
	while (*s == L' ' || *s == L'\t')
		s++;
	return s;
}

/* Cut the first word of @s off; returns the rest (blanks skipped). */
static CHAR16 *cut_word(CHAR16 *s)
{
	while (*s && *s != L' ' && *s != L'\t')
		s++;
	if (*s)
		*s++ = 0;
	return skip_blanks(s);
}

/**
 * boot_path() - start @text's first word with the rest as its options
 * @text: the load options as text (modified)
 * @handled: set to TRUE when @text named an image (started or not)
 */
static EFI_STATUS boot_path(CHAR16 *text, BOOLEAN *handled)
{
	CHAR16 *word = skip_blanks(text), *rest, *path, *p;
	FILEPATH_DEVICE_PATH *mine;
	EFI_DEVICE_PATH *dp;
	EFI_STATUS status;
	BOOLEAN started;
	UINTN size;

	*handled = FALSE;
	rest = cut_word(word);
	/* The UEFI shell passes the app's own name first. */
	mine = self->FilePath ? last_file_node(self->FilePath) : NULL;
	if (*word && mine && !StriCmp(base_name(word), base_name(mine->PathName))) {
		word = rest;
		rest = cut_word(word);
	}
	if (!*word)
		return EFI_NOT_FOUND;
	*handled = TRUE;

	for (p = word; *p; p++)
		if (*p == L'/')
			*p = L'\\';
	size = (StrLen(word) + 2) * sizeof(CHAR16);
	path = AllocateZeroPool(size);
	if (!path)
		return EFI_OUT_OF_RESOURCES;
	if (word[0] != L'\\')
		StrCpy(path, L"\\");
	StrCat(path, word);

	dp = FileDevicePath(self->DeviceHandle, path);
	if (!dp) {
		FreePool(path);
		return EFI_OUT_OF_RESOURCES;
	}
	if (*rest)
		Print(L"set-os: load options for %s: %s\n", path, rest);
	status = start_image(path, dp, *rest ? rest : NULL,
			     *rest ? (StrLen(rest) + 1) * sizeof(CHAR16) : 0, &started);
	FreePool(dp);
	FreePool(path);
	return status;
}

/* --- BootNext / BootOrder ------------------------------------------------ */

/* @v as four upper-case hex digits, as in Boot####; @buf holds 5 characters. */
static CHAR16 *hex4(CHAR16 *buf, UINT16 v)
{
	static const CHAR16 digits[] = L"0123456789ABCDEF";
	UINTN i;

	for (i = 0; i < 4; i++)
		buf[i] = digits[(v >> (12 - 4 * i)) & 0xf];
	buf[4] = 0;
	return buf;
}

static BOOLEAN get_u16_var(CHAR16 *name, UINT16 *value)
{
	UINTN size = 0;
	UINT16 *v = LibGetVariableAndSize(name, &EfiGlobalVariable, &size);

	if (!v)
		return FALSE;
	if (size != sizeof(*v)) {
		Print(L"set-os: %s has %d bytes, not 2: ignored\n", name, (INT32)size);
		FreePool(v);
		return FALSE;
	}
	*value = *v;
	FreePool(v);
	return TRUE;
}

/**
 * boot_entry() - start Boot####
 * @num: the entry's number
 * @started: set to TRUE once an image was started
 *
 * Return: EFI_SUCCESS-or-image status once started, else why not.
 */
static EFI_STATUS boot_entry(UINT16 num, BOOLEAN *started)
{
	CHAR16 name[16], hex[5], *desc;
	UINT8 *opt, *data;
	UINTN size = 0, desc_end, fp_len, data_size;
	EFI_DEVICE_PATH *fp, *full;
	EFI_STATUS status = EFI_LOAD_ERROR;
	UINT32 attrs;

	*started = FALSE;
	SPrint(name, sizeof(name), L"Boot%s", hex4(hex, num));
	opt = LibGetVariableAndSize(name, &EfiGlobalVariable, &size);
	if (!opt) {
		Print(L"set-os: %s does not exist: skipped\n", name);
		return EFI_NOT_FOUND;
	}
	/* EFI_LOAD_OPTION: UINT32 attributes, UINT16 path list length, description, paths, data */
	if (size < 8)
		goto malformed;
	attrs = opt[0] | (opt[1] << 8) | (opt[2] << 16) | ((UINT32)opt[3] << 24);
	fp_len = opt[4] | (opt[5] << 8);
	desc = (CHAR16 *)(opt + 6);
	for (desc_end = 6; desc_end + 1 < size; desc_end += 2)
		if (!opt[desc_end] && !opt[desc_end + 1])
			break;
	if (desc_end + 1 >= size)
		goto malformed;
	desc_end += 2;
	if (fp_len < 4 || fp_len > size - desc_end)
		goto malformed;
	fp = (EFI_DEVICE_PATH *)(opt + desc_end);
	if (!dp_size(fp, fp_len))
		goto malformed;
	data = opt + desc_end + fp_len;
	data_size = size - desc_end - fp_len;

	if (!(attrs & LOAD_OPT_ACTIVE)) {
		Print(L"set-os: %s \"%s\" is inactive: skipped\n", name, desc);
		status = EFI_NOT_FOUND;
		goto out;
	}
	if ((attrs & LOAD_OPT_CATEGORY) != LOAD_OPT_CATEGORY_BOOT) {
		Print(L"set-os: %s \"%s\" is not a boot entry (an application): skipped\n", name,
		      desc);
		status = EFI_NOT_FOUND;
		goto out;
	}
	if (is_self(fp)) {
		Print(L"set-os: %s \"%s\" is this app itself: skipped\n", name, desc);
		status = EFI_NOT_FOUND;
		goto out;
	}
	full = expand_path(fp);
	if (!full) {
		CHAR16 *t = DevicePathToStr(fp);

		Print(L"set-os: %s \"%s\": no device found for %s: skipped\n", name, desc,
		      t ? t : L"?");
		if (t)
			FreePool(t);
		status = EFI_NOT_FOUND;
		goto out;
	}
	if (is_self(full)) {
		Print(L"set-os: %s \"%s\" is this app itself: skipped\n", name, desc);
		FreePool(full);
		status = EFI_NOT_FOUND;
		goto out;
	}
	Print(L"set-os: %s \"%s\"\n", name, desc);
	/* The firmware hands an entry's optional data to the image as its load options. */
	status = start_image(name, full, data_size ? data : NULL, data_size, started);
	FreePool(full);
	goto out;

malformed:
	Print(L"set-os: %s is malformed (%d bytes): skipped\n", name, (INT32)size);
	status = EFI_NOT_FOUND;
out:
	/* Load options must outlive a started image that returned. */
	if (!*started)
		FreePool(opt);
	return status;
}

static EFI_STATUS boot_next_entry(void)
{
	UINT16 next, current = 0, *order;
	BOOLEAN have_current, started;
	UINTN size = 0, n, i, start = 0;
	EFI_STATUS status;
	CHAR16 hex[5];

	if (get_u16_var(L"BootNext", &next)) {
		/* One shot, as in the firmware's boot manager. */
		status = LibDeleteVariable(L"BootNext", &EfiGlobalVariable);
		if (EFI_ERROR(status))
			Print(L"set-os: cannot delete BootNext: %r\n", status);
		Print(L"set-os: BootNext is Boot%s\n", hex4(hex, next));
		status = boot_entry(next, &started);
		if (started)
			return status;
	}

	have_current = get_u16_var(L"BootCurrent", &current);
	order = LibGetVariableAndSize(L"BootOrder", &EfiGlobalVariable, &size);
	if (!order || !size || size % sizeof(UINT16)) {
		Print(L"set-os: no usable BootOrder (%d bytes): nothing to chain-load\n",
		      (INT32)size);
		if (order)
			FreePool(order);
		return EFI_NOT_FOUND;
	}
	n = size / sizeof(UINT16);
	if (have_current) {
		for (i = 0; i < n; i++) {
			if (order[i] == current) {
				start = i + 1;
				break;
			}
		}
		Print(L"set-os: started as Boot%s; trying the BootOrder entries after it\n",
		      hex4(hex, current));
	} else {
		Print(L"set-os: no BootCurrent; trying BootOrder from its start\n");
	}
	for (i = start; i < n; i++) {
		if (have_current && order[i] == current)
			continue;
		status = boot_entry(order[i], &started);
		if (started) {
			FreePool(order);
			return status;
		}
	}
	FreePool(order);
	Print(L"set-os: no boot entry could be started\n");
	return EFI_NOT_FOUND;
}

/* gnu-efi's crt0 calls efi_main with the System V convention: no EFIAPI here. */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_STATUS status;
	BOOLEAN handled = FALSE;
	CHAR16 *text;

	InitializeLib(image, systab);
	self_image = image;
	status = uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol,
				   (VOID **)&self);
	if (EFI_ERROR(status)) {
		Print(L"set-os: no loaded-image protocol: %r\n", status);
		return status;
	}
	Print(L"set-os: macsupport set-os.efi\n");

	call_set_os();

	text = options_text();
	if (text) {
		status = boot_path(text, &handled);
		FreePool(text);
	}
	if (!handled)
		status = boot_next_entry();
	if (EFI_ERROR(status) && !image_started) {
		Print(L"set-os: nothing started (%r): back to the firmware in 5 s\n", status);
		uefi_call_wrapper(BS->Stall, 1, ERROR_STALL_US);
	}
	return status;
}
