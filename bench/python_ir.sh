#!/bin/sh
# Instructions per value (callgrind's Ir, Python and the library together) of the Python rows 6a
# and 6a2 and two fuller state reads (bench/python_ir.py). Run by `make bench-python-ir`, with
# FORMWELL_LIBRARY and PYTHONPATH set. Each figure: (Ir of 2N values - Ir of N values) / N, so
# start-up and imports cancel out; PYTHONHASHSEED is fixed so the runs hash alike.
# Instructions are not time: `make bench` (bench/python_bench.py) stays the measure of the targets.
set -eu
here=$(dirname "$0")
python=$(python3 -c 'import sys; print(sys.executable)')  # the interpreter itself, not a wrapper script
n=${IR_VALUES:-5000}
export PYTHONHASHSEED=0
ir() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$python" "$here/python_ir.py" "$1" "$2" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_value() { echo $(( ($(ir "$1" $((2 * n))) - $(ir "$1" "$n")) / n )); }
base=$(per_value base)
echo "python_ir: instructions per value (callgrind Ir, $n values; Python and libformwell together)"
printf '%-5s %-52s %8s %10s %8s\n' row what formwell baseline ratio
for row in 6a 6a2 view full; do
    case $row in
        6a) what="form[id] = v; form.state(id).validity" ;;
        6a2) what="form.set(id, v).validity" ;;
        view) what="form.set(id, v), then 7 members a view reads" ;;
        full) what="form.set(id, v), then all 31 members" ;;
    esac
    count=$(per_value "$row")
    printf '%-5s %-52s %8s %10s %8s\n' "$row" "$what" "$count" "$base" \
        "$(awk -v a="$count" -v b="$base" 'BEGIN { printf "%.2fx", a / b }')"
done
echo "(baseline: re.fullmatch of the e-mail pattern plus one trivial ctypes call, row 6a's)"
