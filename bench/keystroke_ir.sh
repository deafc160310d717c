#!/bin/sh
# Instructions per keystroke (callgrind's Ir), rows 1a, 2a and 3 of keystroke_bench counted instead
# of timed: the same on every run, so two builds compare on a noisy machine. Run by `make bench-ir`.
# Each figure: (Ir of 2N calls - Ir of N calls) / N, so setup and loading cancel out.
# Instructions are not time (a cache miss or a branch mispredicted costs more than one); the timed
# rows in `make bench` stay the measure of the targets.
set -eu
program=${1:-.build/c/keystroke_ir}
n=${IR_CALLS:-20000}
ir() { # row count -> total Ir
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$program" "$1" "$2" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_call() { echo $(( ($(ir "$1" $((2 * n))) - $(ir "$1" "$n")) / n )); }
email_raw=$(per_call email-raw)
username_raw=$(per_call username-raw)
email=$(per_call email)
username=$(per_call username)
plain=$(per_call plain)
email_v1=$(per_call email-v1)
username_v1=$(per_call username-v1)
plain_v1=$(per_call plain-v1)
email_floor=$(per_call email-floor)
username_floor=$(per_call username-floor)
plain_floor=$(per_call plain-floor)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }
echo "keystroke_ir: instructions per call (callgrind Ir, $n calls; row ids as keystroke_bench)"
printf '%-5s %-44s %8s %10s %8s\n' row what formwell baseline ratio
printf '%-5s %-44s %8s %10s %8s\n' 1a "[email] update_at vs pcre2_jit_match" "$email" "$email_raw" "$(ratio "$email" "$email_raw")"
printf '%-5s %-44s %8s %10s %8s\n' 2a "[regex username] update_at vs pcre2_jit_match" "$username" "$username_raw" "$(ratio "$username" "$username_raw")"
printf '%-5s %-44s %8s %10s %8s\n' 3 "no rules update_at vs e-mail pcre2_jit_match" "$plain" "$email_raw" "$(ratio "$plain" "$email_raw")"
printf '%-5s %-44s %8s %10s %8s\n' 1v1 "[email], first-version struct (not judged)" "$email_v1" "$email_raw" "$(ratio "$email_v1" "$email_raw")"
printf '%-5s %-44s %8s %10s %8s\n' 2v1 "regex username, first-version struct" "$username_v1" "$username_raw" "$(ratio "$username_v1" "$username_raw")"
printf '%-5s %-44s %8s %10s %8s\n' 3v1 "no rules, first-version struct" "$plain_v1" "$email_raw" "$(ratio "$plain_v1" "$email_raw")"
printf '%-5s %-44s %8s %10s %8s\n' 1a-fl "floor (plain C, keystroke_floor.h), [email]" "$email_floor" "$email_raw" "$(ratio "$email_floor" "$email_raw")"
printf '%-5s %-44s %8s %10s %8s\n' 2a-fl "floor, regex username" "$username_floor" "$username_raw" "$(ratio "$username_floor" "$username_raw")"
printf '%-5s %-44s %8s %10s %8s\n' 3-fl "floor, no rules" "$plain_floor" "$email_raw" "$(ratio "$plain_floor" "$email_raw")"
