-- binding_test.lua: unit checks of the LuaJIT binding (bindings/lua/formwell.lua): errors and their
-- status names, the callback contract (a Lua validator that raises never unwinds through the
-- library; its error comes out of the call that ran it and the form stays usable), validators
-- under the JIT, garbage collection of forms, UTF-8 in and out, and the rest of the API.
--
-- Usage: luajit bindings/lua/tests/binding_test.lua    (exit status 1 on any failure)

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path

local formwell = require("formwell")
local json = require("formwell_json")

local passed, failed = 0, 0

local function test(name, fn)
  local ok, err = xpcall(fn, debug.traceback)
  if ok then
    passed = passed + 1
  else
    failed = failed + 1
    print("FAIL " .. name .. ": " .. tostring(err))
  end
end

local function eq(got, want, what)
  if got ~= want then
    error(("%s: expected %s, got %s"):format(what or "value", tostring(want), tostring(got)), 2)
  end
end

-- Runs fn expecting a Lua error; returns the error value.
local function raises(fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then error("expected an error, the call succeeded", 2) end
  return err
end

local function login_form()
  local form = formwell.Form()
  form:add_field("email", { formwell.required(), formwell.email() }, { label = "Email" })
  form:add_field("password", { formwell.required(), formwell.min_length(8, "Too short") })
  return form
end

-- ---- errors ----

test("an unknown field raises FW_ERR_UNKNOWN_FIELD with the library's detail", function()
  local form = login_form()
  local err = raises(form.focus, form, "nope")
  assert(formwell.is_error(err), "a formwell error object")
  eq(err.status, "FW_ERR_UNKNOWN_FIELD", "status")
  eq(err.code, 3, "code")
  eq(err.call, "fw_field_focus", "call")
  assert(err.detail:find("nope", 1, true), "detail names the field: " .. err.detail)
  eq(tostring(err), "FW_ERR_UNKNOWN_FIELD: " .. err.detail, "tostring")
  form:free()
end)

test("duplicate field, bad pattern (with offset), bad spec, bad UTF-8", function()
  local form = login_form()
  eq(raises(form.add_field, form, "email").status, "FW_ERR_DUPLICATE_FIELD")
  local err = raises(form.add_field, form, "code", { formwell.regex("(ab") })
  eq(err.status, "FW_ERR_INVALID_PATTERN")
  assert(err.offset ~= nil and err.offset >= 0, "pattern errors carry an offset")
  eq(raises(form.set, form, "email", "\xff\xfe").status, "FW_ERR_INVALID_UTF8")
  local before = formwell.live_count()
  err = raises(formwell.from_spec, '{"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "regex", "pattern": "("}]}]}')
  eq(err.status, "FW_ERR_INVALID_SPEC")
  assert(err.detail:find("fields[0].rules[0].pattern", 1, true), err.detail)
  eq(formwell.live_count(), before, "a refused spec frees its form")
  eq(raises(formwell.from_spec, "{").status, "FW_ERR_INVALID_SPEC")
  form:free()
end)

test("argument errors: NUL bytes, non-strings, unknown rules, a freed form", function()
  local form = login_form()
  assert(tostring(raises(form.set, form, "email", "a\0b")):find("NUL byte"))
  assert(tostring(raises(form.set, form, "email", 42)):find("must be a string"))
  assert(tostring(raises(form.add_field, form, "x", { { rule = "nope" } })):find("unknown rule"))
  form:free()
  form:free() -- twice is harmless
  assert(form:is_freed())
  assert(tostring(raises(form.focus, form, "email")):find("the form is freed"))
end)

-- ---- the callback contract ----

test("a validator that calls error() raises from the call that ran it; the form stays usable", function()
  local calls = 0
  local form = formwell.Form()
  form:add_field("phone", { formwell.custom(function(value)
    calls = calls + 1
    if value == "boom" then error("validator exploded") end
    return value:sub(1, 1) == "+" or "Number must start with '+'"
  end) })
  form:set("phone", "+1")
  local err = raises(form.set, form, "phone", "boom")
  assert(type(err) == "string" and err:find("validator exploded", 1, true), "the validator's own error: " .. tostring(err))
  eq(form:get("phone"), "+1", "a failed set changes nothing")
  eq(form:state("phone").validity, "valid")
  -- later calls on the same form work (it is not left locked)
  eq(form:update("phone", "123").message, "Number must start with '+'")
  eq(form:validate(), false)
  form:reset()
  eq(form:first_invalid(), nil)
  local before = formwell.live_count()
  form:free() -- fw_form_free succeeds (free raises otherwise)
  eq(formwell.live_count(), before - 1, "freed")
  assert(calls >= 3)
end)

test("error objects (tables) come out as the same value; validate and touch_all too", function()
  local marker = { reason = "custom" }
  local armed = false
  local form = formwell.Form()
  form:add_field("a", { formwell.custom(function() if armed then error(marker) end end) }, { initial = "x" })
  armed = true
  eq(raises(form.validate, form), marker, "validate")
  eq(raises(form.touch_all, form), marker, "touch_all")
  eq(raises(form.blur, form, "a"), marker, "blur")
  armed = false
  eq(form:validate(), true)
  form:free()
end)

test("a validator calling back into its own form gets FW_ERR_BUSY, which surfaces", function()
  local form = formwell.Form()
  form:add_field("a", { formwell.custom(function() return form:is_valid() end) })
  local err = raises(form.set, form, "a", "x")
  eq(formwell.is_error(err) and err.status, "FW_ERR_BUSY")
  form:free()
end)

test("validator verdicts: true/nil valid, false default message, string message, rule message wins", function()
  local form = formwell.Form()
  form:add_field("t", { formwell.custom(function() return true end) })
  form:add_field("n", { formwell.custom(function() end) })
  form:add_field("f", { formwell.custom(function() return false end) })
  form:add_field("s", { formwell.custom(function() return "Nope — 違う" end) })
  form:add_field("m", { formwell.custom(function() return "own" end, "Rule says no") })
  form:add_field("bad", { formwell.custom(function() return 42 end) })
  for _, id in ipairs({ "t", "n", "f", "s", "m" }) do form:set(id, "v") end
  eq(form:state("t").validity, "valid")
  eq(form:state("n").validity, "valid")
  eq(form:state("f").message, "Invalid value")
  eq(form:state("s").message, "Nope — 違う")
  eq(form:state("m").message, "Rule says no")
  assert(tostring(raises(form.set, form, "bad", "v")):find("returned a number"))
  form:free()
end)

test("validators receive the exact UTF-8 bytes; named validators serve specs", function()
  local seen
  local form = formwell.from_spec('{"formwell": 1, "fields": [{"id": "x", "rules": [{"rule": "custom", "name": "keep"}]}]}',
    { validators = { keep = function(v) seen = v end } })
  form:set("x", "e\u{301}日本👨‍👩‍👧")
  eq(seen, "e\u{301}日本👨‍👩‍👧")
  form:free()
end)

test("validators under the JIT: hot loops of events on forms with Lua validators do not panic", function()
  local jit = require("jit")
  assert(jit.status(), "the JIT is on")
  local form = formwell.Form()
  local count = 0
  form:add_field("a", { formwell.custom(function(v) count = count + 1 return #v % 2 == 0 end) })
  local valid = 0
  for i = 1, 20000 do
    form:set("a", i % 3 == 0 and "ab" or "abc")
    if form:update(1, tostring(i)).validity == "valid" then valid = valid + 1 end
  end
  eq(count, 40000, "validator calls")
  assert(valid > 0)
  form:free()
end)

test("a trace compiled before any validator ran (empty values) stays safe, even with a cached method", function()
  local form = formwell.Form()
  local set = form.set -- looked up before the validator exists
  local calls = 0
  form:add_field("a", { formwell.custom(function(v) calls = calls + 1 return #v % 2 == 0 end) })
  local values = {}
  for i = 1, 4000 do values[i] = i <= 3000 and "" or "abc" end -- validators never see ""
  for i = 1, 4000 do set(form, "a", values[i]) end
  eq(calls, 1000, "validator calls")
  form:free()
end)

-- The hazard the binding avoids, shown in a child process: the same loop over raw ffi calls
-- (JIT-compiled) panics with "bad callback"; through the module it completes.
test("raw ffi calls from a trace panic on a Lua callback; the module's calls do not", function()
  local interpreter = arg[-1] or "luajit"
  local function run(body)
    local script = os.tmpname()
    local file = assert(io.open(script, "w"))
    file:write(("package.path = %q .. package.path\n"):format(here .. "/../?.lua;"))
    file:write([[
local formwell = require("formwell")
local form = formwell.Form()
form:add_field("a", { formwell.custom(function(v) return #v % 2 == 0 end) })
local lib, p = formwell.lib, form._ptr
local values = {}
for i = 1, 4000 do values[i] = i <= 3000 and "" or "abc" end
for i = 1, 4000 do local v = values[i]; ]] .. body .. [[ end
print("completed")
]])
    file:close()
    local pipe = io.popen(("%q %q 2>&1"):format(interpreter, script))
    local output = pipe:read("*a")
    pipe:close()
    os.remove(script)
    return output
  end
  local raw = run("lib.fw_field_set_value(p, 'a', v)")
  assert(raw:find("bad callback", 1, true) and not raw:find("completed", 1, true), "raw ffi: " .. raw)
  local module = run("form:set('a', v)")
  assert(module:find("completed", 1, true), "module: " .. module)
end)

test("thousands of Lua validators share one ffi callback (LuaJIT has ~900 slots)", function()
  local forms = {}
  for i = 1, 300 do
    local form = formwell.Form()
    for k = 1, 10 do form:add_field("f" .. k, { formwell.custom(function(v) return v == tostring(i) end) }) end
    forms[i] = form
  end
  forms[7]:set("f3", "7")
  eq(forms[7]:state("f3").validity, "valid")
  forms[7]:set("f3", "8")
  eq(forms[7]:state("f3").validity, "invalid")
  for _, form in ipairs(forms) do form:free() end
end)

-- ---- garbage collection ----

test("collected forms are freed (fw_form_free through ffi.gc), validators and cycles included", function()
  collectgarbage()
  collectgarbage()
  local before = formwell.live_count()
  collectgarbage("stop")
  for _ = 1, 200 do
    local form = login_form()
    form:add_field("c", { formwell.custom(function() return form:is_freed() end) }) -- a cycle through the validator
    form:set("email", "ada@example.com")
  end
  eq(formwell.live_count(), before + 200, "alive before collection")
  collectgarbage("restart")
  collectgarbage()
  collectgarbage()
  eq(formwell.live_count(), before, "alive after collection")
end)

-- ---- UTF-8 and the rest of the API ----

test("UTF-8 values and messages, lengths in grapheme clusters", function()
  local form = formwell.Form()
  form:add_field("name", { formwell.min_length(3, "Au moins 3 caractères — 3文字以上") }, { label = "Nom", initial = "Zoë" })
  eq(form:get("name"), "Zoë")
  form:focus("name")
  local s = form:update("name", "日本")
  eq(s.validity, "invalid")
  eq(s.message, "Au moins 3 caractères — 3文字以上")
  eq(s.value, "日本")
  eq(form:update("name", "👨‍👩‍👧ab").validity, "valid", "the family emoji is one character")
  local long = string.rep("é", 400) -- texts beyond the form's first buffer
  eq(form:update("name", long).value, long)
  eq(form:state("name").value, long)
  eq(form:values().name, long)
  form:free()
end)

test("states, indexes, reset, first_invalid, spec round trip, match limits", function()
  local form = login_form()
  eq(table.concat(form:fields(), ","), "email,password")
  eq(form:index("password"), 2)
  eq(form:count(), 2)
  form:focus("email")
  form:set("email", "ada@")
  local s = form:state("email")
  eq(s.phase, "focused"); eq(s.validity, "invalid"); eq(s.message, "Invalid email format")
  eq(s.display, "none"); eq(s.display_message, ""); eq(s.touched, false); eq(s.failing_rule, 2); eq(s.index, 1)
  form:blur("email")
  s = form:state(1)
  eq(s.phase, "inactive"); eq(s.display, "error"); eq(s.display_message, "Invalid email format"); eq(s.touched, true)
  eq(form:is_valid(), false)
  eq(form:first_invalid(), "email")
  eq(form:validate(), false)
  eq(form:state("password").message, "This field is required")
  form:reset()
  eq(form:state("email").phase, "idle"); eq(form:state("email").failing_rule, nil)
  local again = formwell.from_spec(form:export_spec())
  eq(again:export_spec(), form:export_spec(), "load -> export is stable")
  form:set_match_limits(5000, 100, 1024)
  local m, d, h = form:match_limits()
  eq(m, 5000); eq(d, 100); eq(h, 1024)
  eq(form:time_limit(), 0.005)
  form:set_time_limit(2.5)
  eq(form:time_limit(), 2.5)
  again:free()
  form:free()
end)

test("check_many: verdicts, messages, own messages, initial values for fields left out", function()
  local form = formwell.Form()
  form:add_field("email", { formwell.required(), formwell.email() })
  form:add_field("code", { formwell.custom(function(v) return v == "ok" or ("not ok: " .. v) end) }, { initial = "ok" })
  local result = form:check_many({ { email = "a@b.co" }, { email = "nope", code = "zz" }, { code = "ok" } })
  eq(result.valid[1], true); eq(result.valid[2], false); eq(result.valid[3], false)
  eq(result.invalid_count, 2)
  eq(result:errors(2).email, "Invalid email format")
  eq(result:errors(2).code, "not ok: zz")
  eq(result:errors(3).email, "This field is required")
  eq(result:failing_rule(3, "email"), 1)
  eq(next(result:errors(1)), nil)
  assert(tostring(raises(form.check_many, form, { { nope = "x" } })):find("names no field"))
  eq(form:state("email").touched, false, "the form's own state is untouched")
  form:free()
end)

test("the JSON decoder is strict", function()
  for _, bad in ipairs({ "[1,]", "01", "{\"a\":1,}", "[1 2]", "\"\\ud800\"", "nul", "{} x", "\"\t\"" }) do
    assert(not pcall(json.decode, bad), "refused: " .. bad)
  end
  local v = json.decode('{"a": [1, -2.5e1, true, null, "\\u00e9\\ud83d\\ude00"]}')
  eq(v.a[2], -25); eq(v.a[4], json.null); eq(v.a[5], "é😀")
end)

collectgarbage()
print(("binding_test.lua (LuaJIT, libformwell %s from %s): %d passed, %d failed")
  :format(formwell.version, formwell.library_path, passed, failed))
os.exit(failed == 0 and 0 or 1)
