#!/usr/bin/env bash
# The wheel as a Python user installs it: for the system python3 and every other CPython minor
# version this machine has (3.9 and later), a fresh venv, `pip install` of the wheel (the README's
# "wheel" block), then the conformance vectors through the installed package, the README's Python
# example, `python -m formwell --version`, and the console script's reports byte for byte equal
# to the build tree's CLI on examples/. Then the sdist: refused with a clear message where there
# is no Swift, built into a working wheel where there is.
set -euo pipefail
cd "$(dirname "$0")/../.."
TEST_NAME=test_wheel
: "${VERSION:?}" "${CLI:?}"
source scripts/dist/clean_env.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

wheel=$(ls dist/formwell-"$VERSION"-py3-none-manylinux_*_x86_64.whl)
tag=$(basename "$wheel" .whl); tag=${tag##*-}
shown=$(.venv/bin/python -m auditwheel show "$wheel")
grep -q "platform tag: \"\?$tag\"\?" <<<"$shown" || grep -q "$tag" <<<"$shown" || fail "auditwheel show does not name $tag: $shown"
unzip -l "$wheel" | grep -q "formwell/_bin/formwell" || fail "the wheel has no CLI"
unzip -l "$wheel" | grep -qE "formwell-$VERSION\.dist-info/(licenses/)?LICENSE" || fail "the wheel has no LICENSE"
echo "$TEST_NAME: $(basename "$wheel"): auditwheel names $tag"

python3 scripts/dist/doc_blocks.py example.py > "$work/example.py"
interpreters=(/usr/bin/python3)
for candidate in "$HOME"/.pyenv/versions/3.*/bin/python3; do
  [ -x "$candidate" ] || continue
  minor=$("$candidate" -c 'import sys; print(sys.version_info >= (3, 9))')
  [ "$minor" = True ] && interpreters+=("$candidate")
done

built_minor=$(.venv/bin/python -c 'import sys; print("%d.%d" % sys.version_info[:2])')
seen=()
for interpreter in "${interpreters[@]}"; do
  version=$("$interpreter" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  case " ${seen[*]-} " in *" $version "*) continue ;; esac
  "$interpreter" -c 'import venv, ensurepip' 2>/dev/null || { echo "$TEST_NAME: skipping $interpreter (no venv/ensurepip)"; continue; }
  seen+=("$version")
  home=$work/home-$version
  mkdir -p "$work/bin-$version" && ln -sf "$interpreter" "$work/bin-$version/python3"
  export EXTRA_PATH=$work/bin-$version
  assert_clean "$home"
  out=$(run_block "$home" wheel) || fail "python $version: the README's wheel block failed"
  [ "$(tail -n 1 <<<"$out")" = "formwell $VERSION" ] || fail "python $version: python -m formwell --version printed: $out"
  venv=$home/formwell-venv
  run_clean "$home" "$venv/bin/python" -m pip install --quiet pytest >/dev/null
  where=$(cd "$work" && run_clean "$home" "$venv/bin/python" -c 'import formwell; print(formwell.__file__, formwell.library_path)')
  case "$where" in "$venv"/lib/python*/site-packages/formwell/__init__.py\ "$venv"/*) ;;
    *) fail "python $version: formwell is not the installed package: $where" ;; esac
  result=$(run_clean "$home" "$venv/bin/python" -m pytest -p no:cacheprovider bindings/python/tests/test_conformance.py 2>&1) \
    || { echo "$result" >&2; fail "python $version: the conformance vectors failed through the installed wheel"; }
  grep -q "formwell from $venv/" <<<"$result" || fail "python $version: pytest did not use the installed package"
  (cd "$work" && run_clean "$home" "$venv/bin/python" example.py >/dev/null) || fail "python $version: the README's Python example failed"
  compared=0
  for spec in examples/registration.json; do
    for data in examples/signups.jsonl examples/signups.csv; do
      for format in human json; do
        set +e
        run_clean "$home" "$venv/bin/formwell" check --format "$format" "$spec" "$data" > "$work/got" 2> "$work/got.err"; got=$?
        "$CLI" check --format "$format" "$spec" "$data" > "$work/want" 2> "$work/want.err"; want=$?
        set -e
        [ "$got" = "$want" ] || fail "python $version: formwell check $spec $data exits $got, the build's CLI $want"
        cmp -s "$work/got" "$work/want" || fail "python $version: formwell check --format $format $spec $data differs from the build's CLI"
        cmp -s "$work/got.err" "$work/want.err" || fail "python $version: stderr of formwell check $spec $data differs"
        compared=$((compared + 1))
      done
    done
  done
  note=""; [ "$version" != "$built_minor" ] && note=" (built with $built_minor)"
  echo "$TEST_NAME: python $version$note: installed, $(tail -n 1 <<<"$result"), example ok, $compared CLI reports identical"
done
unset EXTRA_PATH
[ ${#seen[@]} -ge 1 ] || fail "no Python interpreter could make a venv"

# The sdist, where there is no Swift: a failure that says what is missing.
sdist=dist/formwell-$VERSION.tar.gz
home=$work/home-sdist
run_clean "$home" python3 -m venv "$home/venv"
set +e
log=$(cd "$work" && run_clean "$home" "$home/venv/bin/pip" wheel --no-deps -w "$work/sdist-wheel" "$OLDPWD/$sdist" 2>&1); status=$?
set -e
[ "$status" -ne 0 ] || fail "the sdist built a wheel with no Swift on PATH"
grep -q "Swift 6.3" <<<"$log" || { echo "$log" | tail -20 >&2; fail "the sdist's failure does not name the Swift toolchain"; }
echo "$TEST_NAME: sdist without Swift: refused ($(grep -m1 -o 'Swift 6.3[^.]*' <<<"$log"))"

# Where Swift is (the toolchain's folder on PATH), the sdist builds the library and the CLI itself.
swift_dir=$(dirname "$(readlink -f "$(command -v swift)")")
EXTRA_PATH=$swift_dir run_clean "$home" "$home/venv/bin/pip" wheel --quiet --no-deps -w "$work/sdist-wheel" "$PWD/$sdist" >/dev/null 2>"$work/sdist.err" \
  || { tail -20 "$work/sdist.err" >&2; fail "the sdist did not build with Swift on PATH"; }
run_clean "$home" "$home/venv/bin/pip" install --quiet "$work"/sdist-wheel/formwell-"$VERSION"-*.whl
out=$(run_clean "$home" "$home/venv/bin/formwell" --version)
[ "$out" = "formwell $VERSION" ] || fail "the sdist's wheel: formwell --version printed '$out'"
(cd "$work" && run_clean "$home" "$home/venv/bin/python" example.py >/dev/null) || fail "the sdist's wheel: the README's Python example failed"
echo "$TEST_NAME: sdist with Swift: built $(basename "$work"/sdist-wheel/*.whl); CLI and example work"
