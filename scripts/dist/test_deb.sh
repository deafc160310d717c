#!/usr/bin/env bash
# The Debian packages as a Debian user installs them (root, or sudo): lintian first (every tag it
# still gives is explained in scripts/dist/lintian-allowed.txt), then the README's "deb" block
# (dpkg -i), then in a clean environment the README's C program built with pkg-config alone and
# run, `formwell check` from PATH (report identical to the build's CLI), both man pages found by
# `man -w`, the README's Lua example from the system's Lua path; then dpkg -r and --purge, after
# which no file of the packages, no dpkg record and no ldconfig entry is left.
set -euo pipefail
cd "$(dirname "$0")/../.."
TEST_NAME=test_deb
: "${VERSION:?}" "${CLI:?}"
source scripts/dist/clean_env.sh
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || fail "installing .deb files needs root or sudo"
  sudo="sudo"
fi
work=$(mktemp -d)
PACKAGES=(lua-formwell formwell libformwell-dev libformwell0)
cleanup() { $sudo dpkg --purge "${PACKAGES[@]}" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
home=$work/home
assert_clean "$home"
debs=(dist/libformwell0_"$VERSION"-*_amd64.deb dist/libformwell-dev_"$VERSION"-*_amd64.deb
      dist/formwell_"$VERSION"-*_amd64.deb dist/lua-formwell_"$VERSION"-*_all.deb)
for deb in "${debs[@]}"; do [ -f "$deb" ] || fail "no $deb"; done

# lintian: errors and warnings fail unless listed (with the reason) in lintian-allowed.txt.
allowed=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' scripts/dist/lintian-allowed.txt | awk '{print $1}')
report=$(lintian --no-cfg --display-info --suppress-tags-from-file /dev/null "${debs[@]}" 2>&1 || true)
unexplained=$(grep -E '^[EW]: ' <<<"$report" | while read -r line; do
  tag=$(awk '{print $3}' <<<"$line")
  grep -qxF "$tag" <<<"$allowed" || echo "$line"
done)
[ -z "$unexplained" ] || { echo "$unexplained" >&2; fail "lintian tags that lintian-allowed.txt does not explain"; }
echo "$TEST_NAME: lintian: $(grep -cE '^[EW]: ' <<<"$report" || true) errors/warnings (all explained), $(grep -cE '^[IP]: ' <<<"$report" || true) info/pedantic tags"

# A machine that already has them would hide a missing file: start from none.
for pkg in "${PACKAGES[@]}"; do
  if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'installed'; then
    echo "$TEST_NAME: $pkg was installed; purging it first"
    $sudo dpkg --purge "$pkg" >/dev/null
  fi
done
files=$(for deb in "${debs[@]}"; do dpkg-deb --fsys-tarfile "$deb" | tar -t; done | sed 's|^\./|/|' | grep -v '/$' | sort -u)

$sudo bash -euo pipefail -c "$(python3 scripts/dist/doc_blocks.py deb)" >/dev/null || fail "the README's deb block failed"
python3 scripts/dist/doc_blocks.py app.c > "$work/app.c"
python3 scripts/dist/doc_blocks.py example.lua > "$work/example.lua"
mkdir -p "$home" && cp "$work/app.c" "$work/example.lua" "$home/"
run_clean "$home" bash -euo pipefail -c "cd \"\$HOME\"
$(python3 scripts/dist/doc_blocks.py c)" >/dev/null || fail "the README's C program does not build and run against the installed packages"
loaded=$(ldd "$home/app" | sed -n "s/^[[:space:]]*libformwell\.so\.${VERSION%%.*} => \([^ ]*\) .*/\1/p")
installed=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libformwell.so.${VERSION%%.*}
[ -n "$loaded" ] && [ "$loaded" -ef "$installed" ] || fail "app does not load the installed $installed (it loads '$loaded')"
run_clean "$home" bash -c 'cd "$HOME" && luajit example.lua' >/dev/null || fail "the README's Lua example fails with the installed lua-formwell"
[ "$(run_clean "$home" bash -c 'command -v formwell')" = /usr/bin/formwell ] || fail "formwell is not /usr/bin/formwell on PATH"
set +e
run_clean "$home" formwell check examples/registration.json examples/signups.jsonl > "$work/got"; got=$?
"$CLI" check examples/registration.json examples/signups.jsonl > "$work/want"; want=$?
set -e
[ "$got" = "$want" ] && cmp -s "$work/got" "$work/want" || fail "the installed formwell check differs from the build's CLI"
for page in "1 formwell" "3 formwell"; do
  # shellcheck disable=SC2086
  where=$(run_clean "$home" man -w $page) || fail "man -w $page finds nothing"
  [ -f "$where" ] || fail "man -w $page: $where"
done
echo "$TEST_NAME: installed; C program (pkg-config only), Lua example, formwell check (identical report), man -w formwell / -w 3 formwell work"

$sudo dpkg -r "${PACKAGES[@]}" >/dev/null
left=$(while read -r file; do if [ -e "$file" ] || [ -L "$file" ]; then echo "$file"; fi; done <<<"$files")
[ -z "$left" ] || fail "dpkg -r left: $left"
$sudo dpkg --purge "${PACKAGES[@]}" >/dev/null
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  case "$status" in "" | *not-installed) ;; *) fail "dpkg still records $pkg after --purge: $status" ;; esac
done
if ldconfig -p | grep -q libformwell; then fail "ldconfig still lists libformwell after --purge"; fi
echo "$TEST_NAME: dpkg -r and --purge: none of the $(wc -l <<<"$files") files, no dpkg record, no ldconfig entry left"
