-- lua_bench.lua: what a keystroke costs from LuaJIT against the same calls from C, in one process
-- (rows 9a, 9b of bench/README.md). The C passes live in bench/lua_bench_c.c, built as a shared
-- library and loaded here with ffi.load; both sides use one [email] field (focused: the lenient
-- stage), the same 100,000 generated e-mails as keystroke_bench, a 256-byte snapshot text buffer.
--   9a  fw_field_update_at called through LuaJIT's ffi (JIT-compiled loop, Lua strings in)
--       vs the same call from a C loop;
--   9b  the module's form:update("email", v) (fw_field_update by id, a state table with the three
--       texts as Lua strings) vs fw_field_update by id from C.
-- Each figure is the best of 5 rounds after one warm-up, the passes interleaved in every round (order
-- reversed every other round). Rows go to stdout and, as TSV, to $BENCH_ROWS (bench/summary.py).
-- Exit status 1 when a sanity check fails (a verdict differs from PCRE2's match, a call fails).
--
-- Usage: FORMWELL_LIBRARY=.build/release/libformwell.so luajit bench/lua_bench.lua .build/c/liblua_bench_c.so

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/../bindings/lua/?.lua;" .. package.path

local ffi = require("ffi")
local formwell = require("formwell")
local lib = formwell.lib

ffi.cdef([[
int lua_bench_count(void);
int lua_bench_rounds(void);
int lua_bench_email_len(void);
double lua_bench_now(void);
void lua_bench_emails(char *out);
int lua_bench_email_matches(const char *value);
double lua_bench_c_pass(fw_form *form, size_t index, const char *by_id, const char *values, int *out_valid, int *out_errors);
]])
local helper = ffi.load(assert(arg[1], "usage: luajit bench/lua_bench.lua PATH/liblua_bench_c.so"))

local COUNT, ROUNDS, EMAIL_LEN = helper.lua_bench_count(), helper.lua_bench_rounds(), helper.lua_bench_email_len()
local failures = 0

local function fail(text)
  io.stderr:write("SANITY CHECK FAILED: " .. text .. "\n")
  failures = failures + 1
end

-- The values: one C buffer for the C passes, the same bytes as Lua strings for the Lua passes.
local buffer = ffi.new("char[?]", COUNT * EMAIL_LEN)
helper.lua_bench_emails(buffer)
local values, matches = {}, 0
for i = 1, COUNT do
  values[i] = ffi.string(buffer + (i - 1) * EMAIL_LEN)
  matches = matches + helper.lua_bench_email_matches(values[i])
end

local form = formwell.Form()
form:add_field("email", { formwell.email() })
form:focus("email") -- typing: the lenient stage
local ptr, VALID = form._ptr, lib.FW_VALIDITY_VALID

-- Untimed: the module's verdict on every value agrees with PCRE2's match.
for i = 1, COUNT do
  local state = form:update("email", values[i])
  if (state.validity == "valid") ~= (helper.lua_bench_email_matches(values[i]) == 1) then
    fail(("9: value %q: PCRE2 %s, Formwell %s (%s)"):format(values[i], helper.lua_bench_email_matches(values[i]) == 1
      and "matches" or "does not match", state.validity, state.message))
    break
  end
end

local snap = ffi.new("fw_snapshot")
snap.size = ffi.sizeof("fw_snapshot")
local text = ffi.new("char[256]")
local c_valid, c_errors = ffi.new("int[1]"), ffi.new("int[1]")

local passes = {
  lua_at = function()
    local valid, errors = 0, 0
    for i = 1, COUNT do
      if lib.fw_field_update_at(ptr, 0, values[i], snap, text, 256) ~= 0 then errors = errors + 1 end
      if snap.validity == VALID then valid = valid + 1 end
    end
    return valid, errors
  end,
  c_at = function()
    local seconds = helper.lua_bench_c_pass(ptr, 0, nil, buffer, c_valid, c_errors)
    return c_valid[0], c_errors[0], seconds
  end,
  lua_module = function()
    local valid = 0
    for i = 1, COUNT do
      if form:update("email", values[i]).validity == "valid" then valid = valid + 1 end
    end
    return valid, 0
  end,
  c_by_id = function()
    local seconds = helper.lua_bench_c_pass(ptr, 0, "email", buffer, c_valid, c_errors)
    return c_valid[0], c_errors[0], seconds
  end,
}
local order = { "lua_at", "c_at", "lua_module", "c_by_id" }
local best, reported = {}, {}

for round = 0, ROUNDS do
  for k = 1, #order do
    local name = order[round % 2 == 1 and #order + 1 - k or k]
    local start = helper.lua_bench_now()
    local valid, errors, seconds = passes[name]()
    seconds = seconds or helper.lua_bench_now() - start
    if round > 0 and (best[name] == nil or seconds < best[name]) then best[name] = seconds end
    if (valid ~= matches or errors ~= 0) and not reported[name] then
      reported[name] = true
      fail(("%s: %d valid verdicts of %d values (expected %d), %d failed calls"):format(name, valid, COUNT, matches, errors))
    end
  end
end

local function row(id, name, formwell_ns, baseline_ns, target, judged)
  local ratio = formwell_ns / baseline_ns
  local target_text = "\226\137\164" .. target .. "x" -- ≤
  local verdict = ratio <= target and "holds" or "MISSES"
  if not judged then verdict = "(" .. verdict .. ")" end
  print(("row %-3s %-52s formwell %9.1f ns  baseline %9.1f ns  ratio %5.2fx  target %-6s %s")
    :format(id, name, formwell_ns, baseline_ns, ratio, target_text, verdict))
  local path = os.getenv("BENCH_ROWS")
  if path and path ~= "" then
    local out = io.open(path, "a")
    if out then
      out:write(("%s\t%s\t%.1f\t%.1f\tns\t%.2f\t%s\t%s\n"):format(id, name, formwell_ns, baseline_ns, ratio, target_text, verdict))
      out:close()
    end
  end
end

local function ns(name) return best[name] * 1e9 / COUNT end

print(("lua_bench: %s, libformwell %s; %d values per pass (%d e-mails valid), best of %d interleaved rounds after 1 warm-up")
  :format(jit.version, formwell.version, COUNT, matches, ROUNDS))
row("9a", "lua: ffi update_at vs the same calls from C", ns("lua_at"), ns("c_at"), 1.2, true)
row("9b", "lua: form:update(id, v) state table vs C by id", ns("lua_module"), ns("c_by_id"), 2, false)
form:free()
if failures > 0 then
  io.stderr:write(("lua_bench: %d sanity check(s) failed\n"):format(failures))
  os.exit(1)
end
