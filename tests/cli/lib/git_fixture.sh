# tests/cli/lib/git_fixture.sh - shared fixture of the git tests (issue 15):
# source it (`. "$top/tests/cli/lib/git_fixture.sh"`), then `git_fixture DIR`.
# It lives in lib/ so tests/run.sh (tests/cli/*.sh) does not run it as a test.
#
# git_fixture DIR  (needs gpg and git; uses $WOTKIT, default <top>/wotkit)
# creates, with real gpg (ed25519 keys, no passphrase):
#   DIR/gen        GNUPGHOME holding every secret key (signing only; every key
#                  there is ultimately trusted: do not verify with it)
#   DIR/gnupg      GNUPGHOME for verification: public keys of all keys but
#                  "unknown", ownertrust root ultimate, a full (ownertrust.txt)
#   DIR/pgpkeys    pgpkeys-style tree: keys/<KEYID>.asc (armored exports) and
#                  .keyring/openpgp/example.org/<name>/default symlinks
#   DIR/keyring.wk `wotkit keyring build --root ROOT DIR/pgpkeys`, and
#   DIR/keyring.wk.trust  from `gpg --export-ownertrust` (wot trust --import)
#   DIR/keys.tsv   name<TAB>primary fpr<TAB>16-hex key ID<TAB>e-mail<TAB>signing fpr
#   DIR/repo       the repository (see DIR/refs.tsv)
#   DIR/refs.tsv   ref<TAB>kind (tag|commit)<TAB>expected built-in verdict<TAB>
#                  expected git %G? with real gpg (for tags: the letter git's
#                  parse_gpg_output gives for `git verify-tag --raw`)
#                  - both columns written by hand from the rules, not measured
#   DIR/signers.tsv  ref<TAB>name of the key that made its (last) signature, or -
# Keys: root (ultimate); a (certified by root, ownertrust full: distance 1);
# b (certified by a: distance 2; signs with an ed25519 signing subkey, so
# %GF != %GP); untrusted (no certification); unknown (not in gnupg/pgpkeys);
# expired (certified by root, created 2023-01-01, expired 2024-01-01; its
# signature made 2023-06-01); revoked (certified by root, signed 2023-06-01,
# revoked afterwards with reason 0x02 "key material compromised").
# Returns non-zero (and says why on stderr) when a step fails.

GF_T0=20230101T000000       # keys made and certified (faked time)
GF_T1=20230601T000000       # expired / revoked keys sign
GF_D1='2023-06-01T00:00:00Z'

gf_gpg() { # GNUPGHOME-relative gpg, batch, no passphrase
	gpg --batch --yes --quiet --no-tty --passphrase '' --pinentry-mode loopback "$@"
}

# gf_key NAME EXPIRE [TIME]: make key NAME <NAME@example.org> in $GNUPGHOME
gf_key() {
	if [ -n "$3" ]; then
		gf_gpg --faked-system-time "$3!" --quick-gen-key "$1 <$1@example.org>" ed25519 sign,cert "$2"
	else
		gf_gpg --quick-gen-key "$1 <$1@example.org>" ed25519 sign,cert "$2"
	fi
}

gf_fpr() { # name -> primary fingerprint
	gpg --batch --with-colons --list-keys "<$1@example.org>" 2>/dev/null |
		awk -F: '$1 == "fpr" { print $10; exit }'
}

# gf_tag NAME KEYNAME MESSAGE [FAKETIME]: annotated tag NAME at HEAD signed by
# KEYNAME (with real `git tag -s`; FAKETIME through a gpg wrapper)
gf_tag() {
	if [ -n "$4" ]; then
		GIT_COMMITTER_DATE="$GF_D1" git -c gpg.program="$GF_DIR/gpg-at-t1" \
			tag -s -u "$(gf_fpr "$2")" -m "$3" "$1"
	else
		git tag -s -u "$(gf_fpr "$2")" -m "$3" "$1"
	fi
}

# gf_commit BRANCH KEYNAME|- MESSAGE: a commit on a new branch off base
gf_commit() {
	git checkout -q -b "$1" base || return 1
	echo "$3" >"$1.txt" && git add "$1.txt" || return 1
	if [ "$2" = - ]; then
		git commit -q -m "$3"
	else
		git commit -q -S"$(gf_fpr "$2")" -m "$3"
	fi
	git checkout -q base
}

# gf_armor_indent: a signature as gpgsig continuation lines
gf_indent() { sed 's/^/ /'; }

gf_build() {
	D=$1
	mkdir -p "$D/gen" "$D/gnupg" "$D/pgpkeys/keys" || return 1
	chmod 700 "$D/gen" "$D/gnupg"
	GF_DIR=$D
	GNUPGHOME=$D/gen; export GNUPGHOME
	# ---- keys (all made at T0 so the expired key's validity is in the past)
	gf_key root never "$GF_T0" || return 1
	gf_key a never "$GF_T0" || return 1
	gf_key b never "$GF_T0" || return 1
	gf_key untrusted never "$GF_T0" || return 1
	gf_key unknown never "$GF_T0" || return 1
	gf_key expired 1y "$GF_T0" || return 1
	gf_key revoked never "$GF_T0" || return 1
	gf_gpg --faked-system-time "$GF_T0!" --quick-add-key "$(gf_fpr b)" ed25519 sign || return 1
	# ---- certifications at T0 (root: a, expired, revoked; a: b)
	for k in a expired revoked; do
		gf_gpg --faked-system-time "$GF_T0!" -u "$(gf_fpr root)" \
			--quick-sign-key "$(gf_fpr $k)" >/dev/null || return 1
	done
	gf_gpg --faked-system-time "$GF_T0!" -u "$(gf_fpr a)" --quick-sign-key "$(gf_fpr b)" >/dev/null || return 1
	printf '#!/bin/sh\nexec gpg --faked-system-time %s! "$@"\n' "$GF_T1" >"$D/gpg-at-t1"
	chmod +x "$D/gpg-at-t1"
	: >"$D/keys.tsv"
	for k in root a b untrusted unknown expired revoked; do
		f=$(gf_fpr $k)
		s=$f
		[ $k = b ] && s=$(gpg --batch --with-colons --list-keys "$f" |
			awk -F: '$1 == "sub" { s = 1 } s && $1 == "fpr" { print $10; exit }')
		printf '%s\t%s\t%s\t%s@example.org\t%s\n' $k "$f" "$(echo "$f" | cut -c25-40)" $k "$s" >>"$D/keys.tsv"
	done

	# ---- repository
	git init -q -b base "$D/repo" || return 1
	(
	cd "$D/repo" || exit 1
	git config user.name 'Fixture Committer'
	git config user.email 'committer@example.org'
	git config commit.gpgsign false
	git config tag.gpgsign false
	echo base >README && git add README &&
		GIT_AUTHOR_DATE="$GF_D1" GIT_COMMITTER_DATE="$GF_D1" git commit -q -m base || exit 1
	# tags at base: signed by each key, unsigned, tampered, two blocks
	gf_tag t-root root 'tag by root' &&
	gf_tag t-a a 'tag by a' &&
	gf_tag t-b b 'tag by b' &&
	gf_tag t-untrusted untrusted 'tag by untrusted' &&
	gf_tag t-unknown unknown 'tag by unknown' &&
	gf_tag t-expired expired 'tag by expired, made while valid' T1 &&
	gf_tag t-revoked revoked 'tag by revoked, made before the revocation' T1 &&
	git tag -a -m 'unsigned tag' t-unsigned &&
	gf_tag t-tampered-src a 'tag by a, message to be changed' || exit 1
	git cat-file tag t-tampered-src | sed 's/message to be changed/MESSAGE CHANGED/' >../tampered.txt
	o=$(git mktag <../tampered.txt) && git update-ref refs/tags/t-tampered "$o" &&
		git tag -d t-tampered-src >/dev/null || exit 1
	# two blocks: sig by a over the payload, sig by b over payload+sig1, so
	# git (last block) sees a good signature by b
	{
		printf 'object %s\ntype commit\ntag t-twoblocks\n' "$(git rev-parse base)"
		printf 'tagger Fixture Committer <committer@example.org> 1685577600 +0000\n\n'
		printf 'tag with two signature blocks\n'
	} >../twoblocks.payload
	gpg --batch --quiet -a -u "$(gf_fpr a)" --detach-sign <../twoblocks.payload >../twoblocks.sig1 &&
		cat ../twoblocks.payload ../twoblocks.sig1 >../twoblocks.p2 &&
		gpg --batch --quiet -a -u "$(gf_fpr b)" --detach-sign <../twoblocks.p2 >../twoblocks.sig2 &&
		o=$(cat ../twoblocks.p2 ../twoblocks.sig2 | git mktag) &&
		git update-ref refs/tags/t-twoblocks "$o" || exit 1
	# commits, each on its own branch off base
	gf_commit c-a a 'commit by a' &&
	gf_commit c-b b 'commit by b' &&
	gf_commit c-untrusted untrusted 'commit by untrusted' &&
	gf_commit c-unknown unknown 'commit by unknown' &&
	gf_commit c-unsigned - 'unsigned commit' || exit 1
	# a commit with two signatures (two armor blocks in one gpgsig header)
	t=$(git rev-parse 'c-a^{tree}')
	{
		printf 'tree %s\nparent %s\n' "$t" "$(git rev-parse base)"
		printf 'author Fixture Committer <committer@example.org> 1685577600 +0000\n'
		printf 'committer Fixture Committer <committer@example.org> 1685577600 +0000\n\n'
		printf 'commit with two signatures\n'
	} >../twosig.payload
	gpg --batch --quiet -a -u "$(gf_fpr a)" --detach-sign <../twosig.payload >../twosig.sig &&
		gpg --batch --quiet -a -u "$(gf_fpr b)" --detach-sign <../twosig.payload >>../twosig.sig || exit 1
	{
		sed -n '1,4p' ../twosig.payload
		printf 'gpgsig'; gf_indent <../twosig.sig
		sed -n '5,$p' ../twosig.payload
	} >../twosig.commit
	o=$(git hash-object -t commit -w ../twosig.commit) && git update-ref refs/heads/c-twosig "$o" || exit 1
	# a merge (signed by a) of a tag signed by b: mergetag header
	git checkout -q -b side base && echo side >side.txt && git add side.txt &&
		git commit -q -m 'side commit' && gf_tag t-mergesrc b 'tag by b, to be merged' &&
		git checkout -q -b c-merge base && echo m >merge-base.txt && git add merge-base.txt &&
		git commit -q -m 'before merge' &&
		git merge -q --no-ff -S"$(gf_fpr a)" -m 'merge of signed tag t-mergesrc' t-mergesrc >/dev/null 2>&1 &&
		git cat-file commit c-merge | grep -q '^mergetag ' && git checkout -q base || exit 1
	) || { echo "git_fixture: repository failed" >&3; return 1; }

	# ---- revoke "revoked" now (after its T1 signature); --gen-revoke refuses
	# --batch; menu answer "1" = reason 0x02 "key material compromised", a
	# hard revocation (RFC 9580 5.2.3.31: it invalidates the key's earlier
	# signatures too; 0x01 superseded would not, and gpg ignores the reason)
	printf 'y\n1\nfixture\n\ny\n' | gpg --yes --no-tty --command-fd 0 --pinentry-mode loopback \
		--passphrase '' -a -o "$D/revoke.asc" --gen-revoke "$(gf_fpr revoked)" 2>/dev/null
	gpg --list-packets "$D/revoke.asc" 2>/dev/null | grep -q 'revocation reason 0x02' ||
		{ echo "git_fixture: revocation reason is not 0x02" >&3; return 1; }
	gf_gpg --import "$D/revoke.asc" 2>/dev/null || { echo "git_fixture: revocation failed" >&3; return 1; }

	# ---- verification home, pgpkeys tree, wotkit keyring
	for k in root a b untrusted expired revoked; do
		f=$(gf_fpr $k)
		kid=$(echo "$f" | cut -c25-40)
		gpg --batch -a --export "$f" >"$D/pgpkeys/keys/$kid.asc" || return 1
		mkdir -p "$D/pgpkeys/.keyring/openpgp/example.org/$k"
		ln -s "../../../../keys/$kid.asc" "$D/pgpkeys/.keyring/openpgp/example.org/$k/default"
	done
	printf '%s:6:\n%s:5:\n' "$(gf_fpr root)" "$(gf_fpr a)" >"$D/ownertrust.txt"
	root=$(gf_fpr root)
	GNUPGHOME=$D/gnupg
	gf_gpg --import "$D"/pgpkeys/keys/*.asc 2>/dev/null &&
		gf_gpg --import-ownertrust "$D/ownertrust.txt" 2>/dev/null &&
		gpg --batch --check-trustdb >/dev/null 2>&1
	"${WOTKIT:-$GF_TOP/wotkit}" keyring build -o "$D/keyring.wk" --root "$root" "$D/pgpkeys" >/dev/null ||
		{ echo "git_fixture: wotkit keyring build failed" >&3; return 1; }
	gpg --batch --export-ownertrust >"$D/ownertrust.exported" &&
		"${WOTKIT:-$GF_TOP/wotkit}" wot trust --keyring "$D/keyring.wk" --import "$D/ownertrust.exported" \
			>/dev/null || { echo "git_fixture: wot trust --import failed" >&3; return 1; }
	gpgconf --homedir "$D/gen" --kill gpg-agent 2>/dev/null
	gpgconf --homedir "$D/gnupg" --kill gpg-agent 2>/dev/null

	# ---- expectations, by hand (see tests/cli/lib/git_fixture.sh header)
	T=$(printf '\t')
	cat >"$D/refs.tsv" <<EOF
t-root${T}tag${T}good${T}G
t-a${T}tag${T}good${T}G
t-b${T}tag${T}good${T}G
t-mergesrc${T}tag${T}good${T}G
t-untrusted${T}tag${T}untrusted${T}U
t-unknown${T}tag${T}unknown-key${T}E
t-expired${T}tag${T}expired-key${T}Y
t-revoked${T}tag${T}revoked-key${T}R
t-unsigned${T}tag${T}unsigned${T}N
t-tampered${T}tag${T}bad${T}B
t-twoblocks${T}tag${T}multiple-signatures${T}G
c-a${T}commit${T}good${T}G
c-b${T}commit${T}good${T}G
c-untrusted${T}commit${T}untrusted${T}U
c-unknown${T}commit${T}unknown-key${T}E
c-unsigned${T}commit${T}unsigned${T}N
c-twosig${T}commit${T}multiple-signatures${T}E
c-merge${T}commit${T}good${T}G
EOF
	cat >"$D/signers.tsv" <<EOF
t-root${T}root
t-a${T}a
t-b${T}b
t-mergesrc${T}b
t-untrusted${T}untrusted
t-unknown${T}unknown
t-expired${T}expired
t-revoked${T}revoked
t-unsigned${T}-
t-tampered${T}a
t-twoblocks${T}b
c-a${T}a
c-b${T}b
c-untrusted${T}untrusted
c-unknown${T}unknown
c-unsigned${T}-
c-twosig${T}a
c-merge${T}a
EOF
	return 0
}

git_fixture() { # DIR
	if ! command -v gpg >/dev/null 2>&1 || ! command -v git >/dev/null 2>&1; then
		echo "git_fixture: gpg and git are needed" >&2
		return 2
	fi
	mkdir -p "$1" || return 1
	GF_ABS=$(cd "$1" && pwd)
	(
		unset GIT_DIR GIT_WORK_TREE GIT_CONFIG_GLOBAL
		GIT_CONFIG_NOSYSTEM=1 HOME=$GF_ABS; export GIT_CONFIG_NOSYSTEM HOME
		gf_build "$GF_ABS" 3>&2 2>"$GF_ABS/fixture.log"
	)
	gf_rc=$?
	# the agent the signing started (also when a step failed)
	gpgconf --homedir "$GF_ABS/gen" --kill gpg-agent 2>/dev/null
	[ $gf_rc -eq 0 ] || { tail -5 "$GF_ABS/fixture.log" >&2; return 1; }
}
GF_TOP=${GF_TOP:-$(cd "$(dirname "${0:-.}")/../.." 2>/dev/null && pwd)}

# git_fixture_or_exit NAME DIR: git_fixture DIR with its output in DIR.out;
# ends the calling test with "skip - NAME: ..." (exit 0) when gpg or git is
# missing, "not ok - NAME: ..." (exit 1, the output on stderr) when a step
# failed.
git_fixture_or_exit() {
	git_fixture "$2" >"$2.out" 2>&1
	gfo_r=$?
	if [ $gfo_r -eq 2 ]; then
		echo "skip - $1: the fixture needs gpg and git"
		exit 0
	elif [ $gfo_r -ne 0 ]; then
		cat "$2.out" >&2
		echo "not ok - $1: the fixture failed"
		exit 1
	fi
}
