# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when TEST_QUIRKS_BOOT append acpi_mask_gpe=0x06
#
# The user masked the storming GPE from boot on with the kernel parameter
# mac_quirks names as the fix (acpi_mask_gpe=0x06): the module finds it
# masked, records gpe_storm as covered (already done), not applied, and
# leaves it masked when it unloads, since it did not mask it. The other
# quirks are decided as in the shared boot.

g=${EXPECT_GPE_MASKED%% *}
before=$(gpe_line "$g")
quirks_load
st=$(quirk_state gpe_storm)
reason=$(cat "$QUIRKS_DIR/gpe_storm" 2>/dev/null)
rmmod mac_quirks
after=$(gpe_line "$g")

case "$before" in
*unmasked*|"") fail mac_quirks gpe-masked-at-boot "$PROFILE: gpe$g not masked by acpi_mask_gpe= at boot: '$before'" ;;
*masked*)
	if [ "$st" = covered ] && echo "$reason" | grep -q 'already masked' &&
	   echo "$after" | grep -q ' masked'; then
		pass mac_quirks gpe-masked-at-boot "$PROFILE: acpi_mask_gpe=0x$g: '$reason'; after rmmod still:$(echo "$after" | tr -s ' ')"
	else
		fail mac_quirks gpe-masked-at-boot "$PROFILE: state '$st' ('$reason'), after rmmod '$after'"
	fi ;;
esac
