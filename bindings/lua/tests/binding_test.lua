-- binding_test.lua: unit checks of the LuaJIT binding (bindings/lua/formwell.lua): errors and their
-- status names, the callback contract (a Lua validator that raises never unwinds through the
-- library; its error comes out of the call that ran it and the form stays usable), validators
-- under the JIT, garbage collection of forms, UTF-8 in and out, and the rest of the API; issue 11's
-- modes, error mode, groups, external errors, remove_field / reset(values), flags, change tracking,
-- the announcement and the presentation members of state(); issue 12's asynchronous rules (debounce
-- on the host's clock, requests handed out once, stale results, resolve errors, submit with pending
-- fields and groups, specs, the buffer retry of next_request); issue 13's normalisers (add_field's
-- normalize, set_normalizers, normalizers, state().normalized, values normalised, check_many) and
-- secret fields (add_field's secret, set_secret, state().secret, export_spec).
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

-- ---- issue 11: modes, error mode, groups, external errors, live changes, flags, tracking ----

-- Lists compared as text: eq_list({"a", "b"}, {"a", "b"}).
local function eq_list(got, want, what)
  local function text(list)
    if type(list) ~= "table" then return tostring(list) end
    local parts = {}
    for i, item in ipairs(list) do parts[i] = ("%q"):format(tostring(item)) end
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  if text(got) ~= text(want) then
    error(("%s: expected %s, got %s"):format(what or "list", text(want), text(got)), 2)
  end
end

-- What a view draws for a field: "phase validity display tint [errors]".
local function shown(form, id)
  local s = form:state(id)
  return ("%s %s %s %s [%s]"):format(s.phase, s.validity, s.display, s.tint, table.concat(s.errors, "|"))
end

local function signup(options)
  local form = formwell.Form(options)
  form:add_field("email", { formwell.required(), formwell.email() }, { label = "Email" })
  form:add_field("password", { formwell.required(), formwell.min_length(8) }, { label = "Password" })
  return form
end

test("a new form: two_stage, first, revision 0, nothing dirty, no announcement", function()
  local form = formwell.Form()
  eq(form:mode(), "two_stage"); eq(form:error_mode(), "first")
  eq(form:revision(), 0); eq(form:submit_count(), 0); eq(form:submit_failed(), false)
  eq(form:dirty(), false); eq_list(form:dirty_fields(), {}); eq(form:announcement(), "")
  local info = form:info()
  eq(info.field_count, 0); eq(info.dirty_count, 0); eq(info.mode, "two_stage"); eq(info.error_mode, "first")
  form:free()
end)

test("Form{mode, errors} and the setters; a field's own mode and nil to follow the form", function()
  local form = formwell.Form({ mode = "on_submit", errors = "all" })
  eq(form:mode(), "on_submit"); eq(form:error_mode(), "all")
  form:add_field("own", { formwell.required() }, { mode = "two_stage" })
  form:add_field("follows", { formwell.required() })
  eq(form:state("own").mode, "two_stage"); eq(form:state("follows").mode, "on_submit")
  form:set_form_mode("on_change")
  eq(form:mode(), "on_change")
  eq(form:state("own").mode, "two_stage"); eq(form:state("follows").mode, "on_change")
  form:set_mode("follows", "on_blur")
  form:set_mode("own", nil) -- follow the form again
  eq(form:state("own").mode, "on_change"); eq(form:state("follows").mode, "on_blur")
  form:set_error_mode("first")
  eq(form:error_mode(), "first")
  eq(raises(form.set_mode, form, "nope", "on_blur").status, "FW_ERR_UNKNOWN_FIELD")
  form:free()
end)

test("bad mode and error mode names are refused before anything changes", function()
  local live = formwell.live_count()
  assert(tostring(raises(formwell.Form, { mode = "onBlur" })):find("unknown mode 'onBlur'", 1, true))
  assert(tostring(raises(formwell.Form, { errors = "every" })):find("first, all", 1, true))
  assert(tostring(raises(formwell.Form, { mode = 2 })):find("mode name", 1, true))
  eq(formwell.live_count(), live, "no half-made form left")
  local form = formwell.Form()
  form:add_field("a")
  raises(form.set_form_mode, form, "")
  raises(form.set_error_mode, form, "First")
  raises(form.set_mode, form, "a", "sometimes")
  raises(form.add_field, form, "b", {}, { mode = "later" })
  eq_list(form:fields(), { "a" }, "b was not added")
  eq(form:mode(), "two_stage"); eq(form:error_mode(), "first")
  form:free()
end)

test("on_change: strict while focused (an empty required field is invalid as soon as it is focused)", function()
  local form = signup({ mode = "on_change" })
  form:focus("email")
  eq(shown(form, "email"), "focused invalid none error [This field is required]")
  form:set("email", "ada@")
  eq(form:state("email").message, "Invalid email format")
  form:set("email", "ada@example.com")
  eq(shown(form, "email"), "focused valid none accent []")
  -- two_stage (the default) is lenient while focused
  local lenient = signup()
  lenient:focus("email")
  eq(shown(lenient, "email"), "focused empty none accent []")
  form:free(); lenient:free()
end)

test("on_blur: the shown state is frozen between blurs; is_valid reads the live verdict", function()
  local form = signup()
  form:set_mode("password", "on_blur")
  form:focus("password")
  form:set("password", "abc")
  eq(shown(form, "password"), "focused empty none accent []", "nothing shown before the first blur")
  eq(form:first_invalid(), "email")
  form:blur("password")
  eq(shown(form, "password"), "inactive invalid error error [Must be at least 8 characters]")
  form:focus("password")
  form:set("password", "abcdefghij")
  eq(shown(form, "password"), "focused invalid error error [Must be at least 8 characters]", "still frozen")
  form:set("email", "ada@example.com")
  eq(form:is_valid(), true, "the live verdict")
  form:blur("password")
  eq(shown(form, "password"), "inactive valid valid accent []")
  form:free()
end)

test("on_touched and on_submit: nothing shown until touched / validated", function()
  local form = formwell.Form()
  form:add_field("a", { formwell.required() }, { mode = "on_touched" })
  form:add_field("b", { formwell.required() }, { mode = "on_submit" })
  form:set("a", "x"); form:set("a", "")
  eq(shown(form, "a"), "idle empty none neutral []")
  form:touch("a")
  eq(shown(form, "a"), "inactive invalid error error [This field is required]")
  form:set("a", "ok")
  eq(shown(form, "a"), "inactive valid valid accent []", "live once touched")
  form:touch("b")
  eq(shown(form, "b"), "inactive empty none neutral []", "touched, but not validated")
  eq(form:validate(), false)
  eq(shown(form, "b"), "inactive invalid error error [This field is required]")
  form:free()
end)

test("error mode all: every failing rule's message in rule order; message is the first", function()
  local form = formwell.Form({ errors = "all" })
  form:add_field("username", { formwell.required(), formwell.min_length(5), formwell.regex("[a-z]+", "Lowercase letters only"),
    formwell.max_length(10) })
  local s = form:update("username", "AB")
  eq_list(s.errors, { "Must be at least 5 characters", "Lowercase letters only" })
  eq(s.message, "Must be at least 5 characters"); eq(s.failing_rule, 2)
  eq_list(form:update("username", "ada_lovelace!").errors, { "Lowercase letters only", "Must be 10 characters or fewer" })
  eq_list(form:update("username", "adalovelace").errors, { "Must be 10 characters or fewer" })
  eq_list(form:update("username", "grace").errors, {})
  form:set_error_mode("first")
  eq_list(form:update("username", "AB").errors, { "Must be at least 5 characters" })
  form:free()
end)

test("groups: validate / touch_all / is_valid_in / first_invalid_in concern only the group", function()
  local form = formwell.Form()
  form:add_field("email", { formwell.required(), formwell.email() }, { groups = { "account" } })
  form:add_field("password", { formwell.required() }, { groups = { "account" } })
  form:add_field("name", { formwell.required() })
  form:add_to_group("name", "profile")
  form:add_to_group("name", "profile") -- already in it: nothing changes
  eq(form:is_valid_in("account"), false); eq(form:first_invalid_in("account"), "email")
  eq(form:first_invalid_in("profile"), "name")
  form:touch_all("profile")
  eq(form:state("name").touched, true); eq(form:state("email").touched, false)
  form:set("email", "ada@example.com")
  eq(form:first_invalid_in("account"), "password")
  eq(form:validate("account"), false)
  eq(form:state("password").display, "error"); eq(form:state("email").touched, true)
  eq(form:submit_count(), 0, "a group validate is not a submit"); eq(form:submit_failed(), false)
  form:set("password", "pw")
  eq(form:validate("account"), true); eq(form:is_valid_in("account"), true); eq(form:first_invalid_in("account"), nil)
  eq(form:is_valid(), false, "name is still empty")
  local err = raises(form.validate, form, "acount")
  eq(err.status, "FW_ERR_INVALID_ARGUMENT"); eq(err.detail, "no field belongs to group 'acount'")
  eq(raises(form.is_valid_in, form, "x").status, "FW_ERR_INVALID_ARGUMENT")
  eq(raises(form.first_invalid_in, form, "x").status, "FW_ERR_INVALID_ARGUMENT")
  eq(raises(form.touch_all, form, "x").status, "FW_ERR_INVALID_ARGUMENT")
  eq(raises(form.add_to_group, form, "name", "").status, "FW_ERR_INVALID_ARGUMENT")
  assert(tostring(raises(form.is_valid_in, form, 1)):find("group name must be a string", 1, true))
  form:free()
end)

test("add_field with a bad group is all or nothing", function()
  local form = formwell.Form()
  eq(raises(form.add_field, form, "a", {}, { groups = { "ok", "" } }).status, "FW_ERR_INVALID_ARGUMENT")
  eq(form:count(), 0, "the field was taken back out")
  assert(tostring(raises(form.add_field, form, "a", {}, { groups = "ok" })):find("array of group names", 1, true))
  form:free()
end)

test("external errors: set_error, same value keeps it, a new value / clear_error / clear_errors / reset drop it", function()
  local form = signup()
  form:set("email", "ada@example.com"); form:set("password", "longenough")
  form:set_error("email", "Email already registered")
  local s = form:state("email")
  eq(s.external_error, true); eq(s.validity, "invalid"); eq(s.message, "Email already registered")
  eq(s.failing_rule, nil); eq_list(s.errors, { "Email already registered" })
  eq(s.display, "none", "not touched yet")
  eq(form:is_valid(), false); eq(form:first_invalid(), "email")
  form:touch("email")
  s = form:state("email")
  eq(s.display_message, "Email already registered"); eq(s.accessibility_value, "Email already registered")
  eq(s.accessibility_hint, "Correct this field")
  form:set("email", "ada@example.com")
  eq(form:state("email").external_error, true, "the same value keeps it")
  form:set("email", "grace@example.com")
  eq(form:state("email").external_error, false, "a new value drops it"); eq(form:is_valid(), true)
  form:set_error("email", "No"); form:clear_error("email")
  eq(form:state("email").external_error, false)
  form:set_error("email", "No"); form:set_error("password", "Also no")
  form:clear_errors()
  eq(form:is_valid(), true)
  form:set_error("password", "Again"); form:reset()
  eq(form:state("password").external_error, false)
  eq(raises(form.set_error, form, "email", "").status, "FW_ERR_INVALID_ARGUMENT")
  eq(raises(form.clear_error, form, "nope").status, "FW_ERR_UNKNOWN_FIELD")
  -- an empty optional field with an external error, once judged, is inactive (not idle)
  form:add_field("note")
  form:touch("note"); form:set_error("note", "Say something")
  eq(shown(form, "note"), "inactive invalid error error [Say something]")
  form:free()
end)

test("remove_field: refused while a matches rule names the field; indexes shift; check_many after it", function()
  local form = formwell.Form()
  form:add_field("email", { formwell.required() })
  form:add_field("password", { formwell.required() })
  form:add_field("confirm", { formwell.matches("password") })
  form:add_field("nickname", { formwell.max_length(4) }, { initial = "ada" })
  local err = raises(form.remove_field, form, "password")
  eq(err.status, "FW_ERR_INVALID_ARGUMENT")
  eq(err.detail, "field 'confirm' has a matches rule naming 'password'; remove 'confirm' first")
  eq(form:count(), 4, "nothing removed")
  form:focus("confirm")
  form:remove_field("confirm")
  form:remove_field("password")
  eq_list(form:fields(), { "email", "nickname" })
  eq(form:index("nickname"), 2); eq(form:state(2).index, 2); eq(form:get(2), "ada")
  eq(raises(form.state, form, "password").status, "FW_ERR_UNKNOWN_FIELD")
  eq(raises(form.remove_field, form, "password").status, "FW_ERR_UNKNOWN_FIELD")
  local result = form:check_many({ { email = "x" }, { nickname = "toolong" } })
  eq(result.valid[1], true, "nickname left out holds its initial value")
  eq(result:errors(2).email, "This field is required"); eq(result:errors(2).nickname, "Must be 4 characters or fewer")
  form:add_field("password", { formwell.min_length(3) }) -- the id can be used again
  eq(form:index("password"), 3)
  form:free()
end)

test("reset(values): new initial values, then a normal reset; an unknown id changes nothing", function()
  local form = formwell.Form()
  form:add_field("email", { formwell.required(), formwell.email() })
  form:add_field("nickname", { formwell.max_length(12) }, { initial = "ada" })
  form:focus("email"); form:set("email", "grace@navy.mil"); form:set("nickname", "Amazing Grace")
  eq(form:validate(), false)
  eq(form:submit_count(), 1); eq(form:submit_failed(), true)
  eq_list(form:dirty_fields(), { "email", "nickname" })
  form:reset({ email = "grace@navy.mil", nickname = "Grace" })
  local s = form:state("email")
  eq(s.value, "grace@navy.mil"); eq(s.initial, "grace@navy.mil"); eq(s.dirty, false); eq(s.pristine, true)
  eq(s.phase, "idle"); eq(s.touched, false); eq(s.visited, false)
  eq(form:get("nickname"), "Grace"); eq(form:state("nickname").initial, "Grace")
  eq(form:submit_count(), 0); eq(form:submit_failed(), false); eq(form:dirty(), false)
  eq(form:check_many({ {} }).valid[1], true, "check_many holds the new initial values")
  form:set("nickname", "G")
  local revision = form:revision()
  eq(raises(form.reset, form, { nickname = "x", nope = "y" }).status, "FW_ERR_UNKNOWN_FIELD")
  eq(form:get("nickname"), "G"); eq(form:state("nickname").initial, "Grace"); eq(form:revision(), revision)
  form:reset({})
  eq(form:get("nickname"), "Grace", "empty values: a plain reset")
  assert(tostring(raises(form.reset, form, "x")):find("must be a table", 1, true))
  form:free()
end)

test("flags: visited, dirty by bytes, modified_since_submit, submit counters", function()
  local form = formwell.Form()
  form:add_field("name", { formwell.required() }, { initial = "Andr\u{e9}" })
  local s = form:state("name")
  eq(s.visited, false); eq(s.dirty, false); eq(s.pristine, true); eq(s.modified_since_submit, false)
  eq(s.initial, "André")
  form:focus("name")
  eq(form:state("name").visited, true)
  form:set("name", "Andre\u{301}") -- decomposed: other bytes, so dirty
  s = form:state("name")
  eq(s.dirty, true); eq(s.modified_since_submit, true)
  eq_list(form:dirty_fields(), { "name" }); eq(form:info().dirty_count, 1)
  eq(form:validate(), true)
  eq(form:state("name").modified_since_submit, false, "cleared by a validate")
  eq(form:state("name").dirty, true, "still not the initial value")
  eq(form:submit_count(), 1); eq(form:submit_failed(), false)
  form:set("name", "")
  eq(form:validate(), false); eq(form:submit_count(), 2); eq(form:submit_failed(), true)
  form:reset()
  s = form:state("name")
  eq(s.visited, false); eq(s.dirty, false); eq(form:submit_count(), 0)
  form:free()
end)

test("changed_since: only the fields an event changed; a same-value set changes nothing", function()
  local form = signup()
  eq_list(form:changed_since(0), { "email", "password" }, "adding a field counts")
  local r = form:revision()
  eq_list(form:changed_since(r), {})
  form:focus("email")
  eq_list(form:changed_since(r), { "email" })
  r = form:revision()
  eq(form:state("email").revision, r, "a state's revision is when it last changed")
  form:set("email", "")
  eq_list(form:changed_since(r), {}, "the same value"); eq(form:revision(), r)
  form:focus("password") -- blurs email, focuses password
  eq_list(form:changed_since(r), { "email", "password" })
  r = form:revision()
  form:add_field("note")
  eq_list(form:changed_since(r), { "note" })
  eq_list(form:changed_since(form:info().revision), {})
  assert(tostring(raises(form.changed_since, form, -1)):find("0 or more", 1, true))
  assert(tostring(raises(form.changed_since, form, "1")):find("must be a number", 1, true))
  form:free()
end)

test("announcement after a failed submit names the failing fields by label (else the id)", function()
  local form = signup()
  form:add_field("note", { formwell.max_length(2) })
  eq(form:announcement(), "")
  form:set("note", "long")
  eq(form:validate(), false)
  eq(form:announcement(), "3 fields need attention: Email, Password, note")
  form:set("email", "ada@example.com"); form:set("note", "")
  eq(form:announcement(), "1 field needs attention: Password", "the fields failing now")
  form:set("password", "longenough")
  eq(form:announcement(), "", "none fails now")
  form:set("password", "")
  eq(form:validate(), false); eq(form:announcement(), "1 field needs attention: Password")
  form:reset()
  eq(form:announcement(), "", "a reset clears submit_failed")
  form:free()
end)

test("presentation: tint, label_raised, emphasized, label (else the id), accessibility value and hints", function()
  local form = formwell.Form()
  form:add_field("email", { formwell.required(), formwell.email() }, { label = "Email" })
  form:add_field("password", { formwell.required(), formwell.min_length(8, "Too short", "Use 8 characters or more") })
  form:add_field("confirm", { formwell.matches("email") })
  local s = form:state("email")
  eq(s.tint, "neutral"); eq(s.label_raised, false); eq(s.emphasized, false); eq(s.label, "Email")
  eq(s.accessibility_value, ""); eq(s.accessibility_hint, "")
  eq(form:state("password").label, "password", "no label: the id")
  form:focus("email")
  s = form:state("email")
  eq(s.tint, "accent"); eq(s.label_raised, true); eq(s.emphasized, true)
  form:set("email", "ada@")
  eq(form:state("email").tint, "error")
  form:blur("email")
  s = form:state("email")
  eq(s.tint, "error"); eq(s.emphasized, false); eq(s.display, "error")
  eq(s.accessibility_value, "Invalid email format"); eq(s.accessibility_hint, "Enter a valid email address")
  form:touch("password")
  s = form:state("password")
  eq(s.accessibility_value, "This field is required"); eq(s.accessibility_hint, "Enter a value")
  eq(s.tint, "error", "inactive, required and empty: invalid"); eq(s.label_raised, true, "not idle")
  form:set("password", "short")
  eq(form:state("password").accessibility_hint, "Use 8 characters or more", "the rule's own hint")
  form:set("confirm", "x"); form:touch("confirm")
  eq(form:state("confirm").accessibility_hint, "Enter the same value as Email")
  form:set("email", "ada@example.com")
  s = form:state("email")
  eq(s.tint, "accent"); eq(s.accessibility_value, ""); eq(s.accessibility_hint, "")
  -- hints travel through specs too
  local spec = formwell.from_spec('{"formwell": 1, "mode": "on_change", "errors": "all", "fields": [{"id": "code", '
    .. '"mode": "on_blur", "groups": ["g"], "rules": [{"rule": "regex", "pattern": "[0-9]+", "hint": "Digits"}]}]}')
  eq(spec:mode(), "on_change"); eq(spec:error_mode(), "all"); eq(spec:state("code").mode, "on_blur")
  spec:set("code", "x"); spec:touch("code")
  eq(spec:state("code").accessibility_hint, "Digits"); eq(spec:first_invalid_in("g"), "code")
  spec:free()
  form:free()
end)

test("issue 11 events on a form with Lua validators: jit.off copies, validator errors surface", function()
  local armed = false
  local form = formwell.Form()
  form:add_field("code", { formwell.custom(function(v)
    if armed then error("validator exploded") end
    return v:sub(1, 1) == "+" or "Number must start with '+'"
  end) }, { groups = { "g" }, initial = "+1" })
  form:add_field("other", { formwell.required() }, { groups = { "g" } })
  for i = 1, 300 do -- hot enough to be compiled; every call reaches the validator from the interpreter
    form:set("code", i % 2 == 0 and "+" .. i or tostring(i))
    form:set_error("code", "x"); form:clear_error("code"); form:clear_errors()
    form:validate("g"); form:touch_all("g")
    form:reset({ code = "+" .. i })
  end
  eq(form:get("code"), "+300")
  armed = true
  for _, call in ipairs({
    function() return form:set_error_mode("all") end,
    function() return form:validate("g") end,
    function() return form:touch_all("g") end,
    function() return form:reset({ code = "+9" }) end,
  }) do
    local err = raises(call)
    assert(type(err) == "string" and err:find("validator exploded", 1, true), tostring(err))
  end
  armed = false
  eq(form:error_mode(), "first", "the failed set_error_mode changed nothing")
  eq(form:state("code").initial, "+300", "the failed reset changed nothing")
  form:free()
end)

-- ---- issue 12: asynchronous rules (requests the host takes, checks and resolves, on its clock) ----

-- A username field (required, min_length 3, one async rule) and an email field; the form's clock at 1000.
local function username_form(async_options, form_options)
  local form = formwell.Form(form_options)
  form:add_field("username", { formwell.required(), formwell.min_length(3),
    formwell.async_rule("username_available", async_options) }, { label = "Username", groups = { "account" } })
  form:add_field("email", { formwell.email() }, { label = "Email", groups = { "contact" } })
  form:tick(1000)
  return form
end

-- A request table as text, every key: "id field index value rule due".
local function request_text(r)
  if r == nil then return "nil" end
  return ("%s %s %s %s %s %s"):format(tostring(r.id), r.field, tostring(r.index), r.value, r.rule, tostring(r.due))
end

test("async_rule: a spec-shaped table; bad names, debounces and options are refused", function()
  local r = formwell.async_rule("username_available", { debounce_ms = 250, message = "Taken", hint = "Try another" })
  eq(r.rule, "async"); eq(r.name, "username_available"); eq(r.debounce_ms, 250); eq(r.message, "Taken"); eq(r.hint, "Try another")
  r = formwell.async_rule("x")
  eq(r.debounce_ms, nil); eq(r.message, nil); eq(r.hint, nil)
  assert(tostring(raises(formwell.async_rule, "x", 500)):find("options must be a table", 1, true))
  local form = formwell.Form()
  for _, bad in ipairs({ -1, 1.5, 2147483648, "500" }) do
    local err = raises(form.add_field, form, "u", { formwell.async_rule("a", { debounce_ms = bad }) })
    assert(tostring(err):find("rule 1 of u: debounce_ms must be a whole number of milliseconds from 0 to 2147483647", 1, true), tostring(err))
  end
  assert(tostring(raises(form.add_field, form, "u", { formwell.async_rule(42) })):find("name must be a string", 1, true))
  eq(raises(form.add_field, form, "u", { formwell.async_rule("") }).status, "FW_ERR_INVALID_ARGUMENT")
  eq(form:count(), 0, "every refused add_field left the form without the field")
  -- the largest debounce passes; it is exported as given
  form:add_field("u", { formwell.async_rule("a", { debounce_ms = 2147483647 }) })
  assert(form:export_spec():find('"debounce_ms" : 2147483647', 1, true), form:export_spec())
  form:free()
end)

test("debounce: pending reads like valid; typing again replaces the request; handed out once at its due time", function()
  local form = username_form()  -- debounce 500 by default
  eq(form:next_due(), nil)
  form:focus("username")
  form:set("username", "ad")     -- fails min_length: nothing is sent
  eq(form:next_due(), nil); eq(form:state("username").validity, "invalid"); eq(form:info().pending_count, 0)
  form:set("username", "ada")    -- request 1, due 1500
  eq(form:next_due(), 1500)
  form:tick(1200)
  form:set("username", "adam")   -- request 1 dropped (never handed out); request 2 due 1700
  eq(form:next_due(), 1700)
  local s = form:state("username")
  eq(s.validity, "pending"); eq(s.message, ""); eq(s.display, "none"); eq(s.tint, "accent")
  eq(s.failing_rule, nil); eq_list(s.errors, {}); eq(s.accessibility_hint, "")
  eq(form:is_valid(), false, "is_valid is false while a field is pending")
  eq(form:first_invalid(), nil, "a pending field is not invalid")
  eq_list(form:pending_fields(), { "username" })
  local info = form:info()
  eq(info.pending_count, 1); eq(info.stale_results, 0); eq(info.now, 1200)
  eq(request_text(form:next_request(1699)), "nil", "not due yet")
  eq(form:now(), 1699, "next_request ticks")
  eq(form:next_due(), 1700)
  eq(request_text(form:next_request(1700)), "2 username 1 adam username_available 1700")
  eq(form:next_due(), nil, "handed out: no longer scheduled")
  eq(request_text(form:next_request(9000)), "nil", "handed out once")
  eq(form:state("username").validity, "pending", "pending until resolved")
  eq(form:resolve(2, "valid"), "applied")
  eq(shown(form, "username"), "focused valid none accent []")
  eq(form:is_valid(), true); eq_list(form:pending_fields(), {})
  form:set("username", "adam")   -- the same value keeps the result
  eq(form:next_due(), nil); eq(form:state("username").validity, "valid")
  form:free()
end)

test("resolve: invalid with the host's message, the rule's message winning, error verdicts; failing_rule after the sync rules", function()
  local form = username_form({ debounce_ms = 0 })
  form:set("username", "ada")
  local r = form:next_request(1000)
  eq(form:resolve(r.id, "invalid", "Username is already taken"), "applied")
  local s = form:state("username")
  eq(s.validity, "invalid"); eq(s.message, "Username is already taken"); eq(s.failing_rule, 3)
  eq_list(s.errors, { "Username is already taken" }); eq(s.tint, "error")
  eq(form:first_invalid(), "username")
  form:touch("username")
  s = form:state("username")
  eq(s.display, "error"); eq(s.display_message, "Username is already taken"); eq(s.accessibility_hint, "Correct this field")
  -- an invalid verdict without a message: "Invalid value"; error verdicts
  for _, case in ipairs({
    { "adam", "invalid", nil, "Invalid value" },
    { "adam_", "error", nil, "Could not check this value" },
    { "adam__", "error", "Service unavailable, try again", "Service unavailable, try again" },
  }) do
    form:set("username", case[1])
    eq(form:resolve(form:next_request(1000), case[2], case[3]), "applied", case[1]) -- the request table itself
    eq(form:state("username").message, case[4], case[1])
  end
  form:free()
  -- the rule's own message (and hint) replace the host's message for invalid, not for error
  form = username_form({ debounce_ms = 0, message = "That username is taken", hint = "Pick another name" })
  form:set("username", "ada")
  form:resolve(form:next_request(1000), "invalid", "Host message")
  form:touch("username")
  s = form:state("username")
  eq(s.message, "That username is taken"); eq(s.accessibility_hint, "Pick another name")
  form:set("username", "adam")
  form:resolve(form:next_request(1000), "error", "Service down")
  eq(form:state("username").message, "Service down")
  form:free()
end)

test("out of order: a late result for an older value is stale and leaves the newer verdict; resolve errors change nothing", function()
  local form = username_form({ debounce_ms = 0 })
  form:focus("username")
  form:set("username", "ada")
  local first = form:next_request(1000)
  form:set("username", "adam")
  local second = form:next_request(1050)
  eq(request_text(first), "1 username 1 ada username_available 1000")
  eq(request_text(second), "2 username 1 adam username_available 1000", "set at 1000 (the last told time), due then")
  eq(form:resolve(second.id, "invalid", "Username is already taken"), "applied")
  eq(form:resolve(first.id, "valid"), "stale", "the slow first answer arrives last")
  eq(form:state("username").message, "Username is already taken", "the newer verdict stays")
  eq(form:stale_results(), 1); eq(form:info().stale_results, 1)
  local revision = form:revision()
  local function fails(id, verdict, status, detail)
    local err = raises(form.resolve, form, id, verdict)
    eq(err.status, status, tostring(id)); eq(err.call, "fw_form_resolve")
    assert(err.detail:find(detail, 1, true), err.detail)
  end
  fails(2, "valid", "FW_ERR_REQUEST_CLOSED", "already resolved")
  fails(1, "valid", "FW_ERR_REQUEST_CLOSED", "already resolved")
  fails(999, "valid", "FW_ERR_UNKNOWN_REQUEST", "999")
  fails(0, "valid", "FW_ERR_UNKNOWN_REQUEST", "0")
  form:set("username", "adam_")  -- request 3, due now, not taken
  fails(3, "valid", "FW_ERR_INVALID_ARGUMENT", "not been handed out")
  eq(form:stale_results(), 1, "errors change nothing")
  eq_list(form:changed_since(revision), { "username" }, "only the set-value changed the field")
  -- the binding's own checks, before any C call
  assert(tostring(raises(form.resolve, form, 3, "maybe")):find("verdict must be one of valid, invalid, error, not 'maybe'", 1, true))
  assert(tostring(raises(form.resolve, form, -1, "valid")):find("whole number", 1, true))
  assert(tostring(raises(form.resolve, form, 1.5, "valid")):find("whole number", 1, true))
  assert(tostring(raises(form.resolve, form, "3", "valid")):find("must be a number", 1, true))
  assert(tostring(raises(form.resolve, form, 3, "invalid", "a\0b")):find("NUL byte", 1, true))
  -- a uint64_t id works as a number does
  local third = form:next_request(1050)
  eq(third.id, 3)
  eq(form:resolve(require("ffi").new("uint64_t", 3), "valid"), "applied")
  eq(form:state("username").validity, "valid")
  form:free()
end)

test("reset and remove_field cancel: handed-out requests become stale, scheduled ones vanish", function()
  local form = username_form({ debounce_ms = 100 })
  form:set("username", "ada")
  local taken = form:next_request(1100)
  form:set("username", "adam") -- request 2 scheduled, 1 handed out (stale now)
  form:reset()
  eq(form:next_due(), nil); eq(form:info().pending_count, 0); eq(form:state("username").validity, "empty")
  eq(form:resolve(taken, "valid"), "stale")
  eq(raises(form.resolve, form, 2, "valid").status, "FW_ERR_REQUEST_CLOSED", "a scheduled request that vanished")
  form:set("username", "bob")  -- scheduled from the last told time (1100)
  eq(form:next_due(), 1200)
  taken = form:next_request(1200)
  eq(taken.id, 3)
  form:remove_field("username")
  eq(form:resolve(taken, "valid"), "stale")
  eq(form:stale_results(), 2); eq(form:info().pending_count, 0); eq(form:is_valid(), true)
  form:free()
end)

test("the clock: tick never goes back; now as a number or a uint64_t; bad times are refused", function()
  local form = username_form()
  form:tick(500)
  eq(form:now(), 1000, "a smaller time is ignored")
  form:tick(require("ffi").new("uint64_t", 2000))
  eq(form:now(), 2000)
  eq(form:next_request(1500), nil); eq(form:now(), 2000)
  for _, bad in ipairs({ -1, 0.5, 1 / 0, 0 / 0 }) do
    assert(tostring(raises(form.tick, form, bad)):find("whole number of milliseconds", 1, true), tostring(bad))
    assert(tostring(raises(form.next_request, form, bad)):find("whole number of milliseconds", 1, true), tostring(bad))
  end
  assert(tostring(raises(form.tick, form, "10")):find("must be a number of milliseconds, not string", 1, true))
  eq(form:now(), 2000)
  form:free()
end)

test("next_request grows its buffer: a long value and a long field id come out whole, handed out once", function()
  local form = formwell.Form()
  local id = ("f"):rep(300)
  form:add_field(id, { formwell.async_rule(("r"):rep(200), { debounce_ms = 0 }) })
  local value = ("é"):rep(5000) -- 10000 bytes
  form:set(id, value)
  local r = form:next_request(0)
  eq(r.id, 1); eq(r.field, id); eq(r.value, value); eq(r.rule, ("r"):rep(200)); eq(r.index, 1); eq(r.due, 0)
  eq(form:next_request(0), nil, "the too-small first try handed nothing out; the retry did, once")
  eq(form:resolve(r, "valid"), "applied")
  eq(form:state(id).validity, "valid")
  form:free()
end)

test("submit: flushes debounced requests, answers pending with the ids, then invalid / valid; groups", function()
  local form = username_form()
  form:set("email", "ada@example.com")
  form:set("username", "ada")                 -- due 1500
  eq(form:next_request(1000), nil)
  local outcome, pending = form:submit()
  eq(outcome, "pending"); eq_list(pending, { "username" })
  eq(form:next_due(), 1000, "a submit does not wait out the debounce")
  eq(form:submit_count(), 1); eq(form:submit_failed(), false, "pending is not a failed submit")
  eq(form:announcement(), "")
  eq(form:validate(), false, "validate answers false while pending")
  local r = form:next_request(1000)
  eq(request_text(r), "1 username 1 ada username_available 1000")
  form:resolve(r, "invalid", "Username is already taken")
  outcome, pending = form:submit()
  eq(outcome, "invalid"); eq_list(pending, {})
  eq(form:submit_failed(), true); eq(form:announcement(), "1 field needs attention: Username")
  form:set("username", "ada_l")
  eq(form:submit(), "pending")
  form:resolve(form:next_request(1000), "valid")
  outcome, pending = form:submit()
  eq(outcome, "valid"); eq_list(pending, {}); eq(form:submit_count(), 5); eq(form:submit_failed(), false)
  -- groups: only the group's fields take part, their pending ids only; the counters stay
  form:set("username", "ada_lo")              -- due 1500
  outcome, pending = form:submit("contact")
  eq(outcome, "valid"); eq_list(pending, {}); eq(form:next_due(), 1500, "a group submit flushes only its fields")
  outcome, pending = form:submit("account")
  eq(outcome, "pending"); eq_list(pending, { "username" }); eq(form:next_due(), 1000)
  eq(form:submit_count(), 5, "group submits leave the counters alone")
  local err = raises(form.submit, form, "nope")
  eq(err.status, "FW_ERR_INVALID_ARGUMENT"); eq(err.call, "fw_form_submit")
  form:free()
end)

test("a group submit lists only the group's pending fields (fw_field_in_group)", function()
  local form = formwell.Form()
  form:add_field("a", { formwell.async_rule("ra", { debounce_ms = 0 }) }, { groups = { "one" } })
  form:add_field("b", { formwell.async_rule("rb", { debounce_ms = 0 }) }, { groups = { "two" } })
  form:add_field("c", { formwell.async_rule("rc", { debounce_ms = 0 }) })
  form:add_to_group("c", "one")
  form:set("a", "x"); form:set("b", "y"); form:set("c", "z")
  eq_list(form:pending_fields(), { "a", "b", "c" })
  local outcome, pending = form:submit("one")
  eq(outcome, "pending"); eq_list(pending, { "a", "c" })
  outcome, pending = form:submit("two")
  eq(outcome, "pending"); eq_list(pending, { "b" })
  form:free()
  -- a form whose spec cannot be exported (a Lua function as a custom rule): the library still
  -- knows the group's members
  form = formwell.Form()
  form:add_field("a", { formwell.custom(function() end), formwell.async_rule("ra", { debounce_ms = 0 }) }, { groups = { "one" } })
  form:add_field("b", { formwell.async_rule("rb", { debounce_ms = 0 }) })
  form:set("a", "x"); form:set("b", "y")
  assert(not pcall(form.export_spec, form))
  outcome, pending = form:submit("one")
  eq(outcome, "pending"); eq_list(pending, { "a" })
  outcome, pending = form:submit()
  eq(outcome, "pending"); eq_list(pending, { "a", "b" })
  form:free()
end)

test("async rules from a spec and add_async_rule; two async rules on a field stay pending until both answer", function()
  local form = formwell.from_spec([[{"formwell": 1, "fields": [{"id": "username", "rules": [
    {"rule": "required"},
    {"rule": "async", "name": "available", "message": "Taken", "hint": "Pick another"}]}]}]])
  form:add_async_rule("username", "not_banned", { debounce_ms = 100, message = "Not allowed" })
  form:set("username", "ada")
  eq(form:next_due(), 100, "the spec's rule: 500 by default; add_async_rule's: 100")
  local banned = form:next_request(100)
  eq(request_text(banned), "2 username 1 ada not_banned 100")
  local available = form:next_request(500)
  eq(request_text(available), "1 username 1 ada available 500")
  eq(form:resolve(available, "valid"), "applied")
  eq(form:state("username").validity, "pending", "one check still out")
  eq(form:resolve(banned, "invalid"), "applied")
  local s = form:state("username")
  eq(s.validity, "invalid"); eq(s.message, "Not allowed"); eq(s.failing_rule, 3)
  local spec = form:export_spec()
  assert(spec:find('"name" : "not_banned"', 1, true) and spec:find('"hint" : "Pick another"', 1, true), spec)
  -- add_async_rule: default debounce, no hint, the library's checks
  form:add_async_rule("username", "third")
  assert(form:export_spec():find('"debounce_ms" : 500,\n%s*"name" : "third"'), form:export_spec())
  assert(tostring(raises(form.add_async_rule, form, "username", "x", { hint = "h" })):find("takes no hint", 1, true))
  assert(tostring(raises(form.add_async_rule, form, "username", "x", 5)):find("options must be a table", 1, true))
  eq(raises(form.add_async_rule, form, "nope", "x").status, "FW_ERR_UNKNOWN_FIELD")
  eq(raises(form.add_async_rule, form, "username", "").status, "FW_ERR_INVALID_ARGUMENT")
  form:free()
end)

test("pending_fields lists the fields waiting for a check whatever they show: on_blur before its first blur; focused", function()
  local form = formwell.Form({ mode = "on_blur" })
  form:add_field("u", { formwell.required(), formwell.async_rule("avail", { debounce_ms = 0 }) }, { groups = { "account" } })
  form:add_field("e", { formwell.required() }, { initial = "ada@example.com", groups = { "contact" } })
  eq(form:focused(), nil); eq_list(form:pending_fields(), {})
  form:focus("u"); form:set("u", "ada")
  eq(form:focused(), "u")
  eq(form:state("u").validity, "empty"); eq(form:info().pending_count, 1); eq_list(form:pending_fields(), { "u" })
  local outcome, pending = form:submit("contact")
  eq(outcome, "valid"); eq_list(pending, {}); eq(form:state("u").validity, "empty")
  form:focus("e") -- blurs u: its shown state catches up
  eq(form:focused(), "e"); eq(form:state("u").validity, "pending"); eq_list(form:pending_fields(), { "u" })
  form:blur("e")
  eq(form:focused(), nil)
  outcome, pending = form:submit("account")
  eq(outcome, "pending"); eq_list(pending, { "u" })
  -- a shown copy reading pending takes the result when it arrives
  form:resolve(form:next_request(0), "invalid", "Taken")
  eq(shown(form, "u"), "inactive invalid error error [Taken]")
  form:free()
end)

test("async events on a form with Lua validators: jit.off copies; submit surfaces a validator's error", function()
  local armed = false
  local form = formwell.Form()
  form:add_field("code", { formwell.custom(function(v)
    if armed then error("validator exploded") end
    return v:sub(1, 1) == "+" or "Number must start with '+'"
  end), formwell.async_rule("code_free", { debounce_ms = 10 }) })
  local applied, stale = 0, 0
  for i = 1, 300 do -- hot enough to be compiled
    form:set("code", "+" .. i)
    local r = form:next_request(i * 20)
    if i % 3 == 0 then form:set("code", "+x" .. i) end
    if form:resolve(r, i % 2 == 0 and "valid" or "invalid") == "stale" then stale = stale + 1 else applied = applied + 1 end
    form:submit()
  end
  eq(applied, 200); eq(stale, 100); eq(form:stale_results(), 100)
  armed = true
  local err = raises(form.submit, form)
  assert(type(err) == "string" and err:find("validator exploded", 1, true), tostring(err))
  armed = false
  eq(form:submit_count(), 300, "the failed submit changed nothing")
  form:free()
end)

-- ---- issue 13: normalisers and secret fields ----

test("normalize: the rules judge the normalised value; state.value is what was set; values are normalised", function()
  local form = formwell.Form()
  form:add_field("name", { formwell.required() }, { normalize = { "trim" } })
  form:add_field("email", { formwell.email() }, { normalize = { "trim", "lowercase" } })
  form:add_field("phone", { formwell.regex("^[0-9]{10}$") }, { normalize = { "digits_only" } })
  form:set("name", "   ")
  local state = form:state("name")
  eq(state.validity, "invalid", "white space only fails required")
  eq(state.message, "This field is required")
  eq(state.value, "   ", "value as set")
  eq(state.normalized, "", "normalized")
  eq(state.label_raised, true, "the label follows what was set")
  eq(state.secret, false)
  form:set("email", "  Ada@Example.COM ")
  eq(form:state("email").validity, "valid")
  eq(form:get("email"), "  Ada@Example.COM ")
  eq(form:get_normalized("email"), "ada@example.com")
  form:set("phone", "(555) 123-4567")
  eq(form:state("phone").validity, "valid")
  local values = form:values()
  eq(values.name, ""); eq(values.email, "ada@example.com"); eq(values.phone, "5551234567")
  eq(form:is_valid(), false)
  form:set("name", " Ada ")
  eq(form:is_valid(), true)
  eq(form:values().name, "Ada")
  -- a field without normalisers: normalized is the value
  form:add_field("note")
  form:set("note", " x ")
  eq(form:state("note").normalized, " x ")
  eq(table.concat(form:normalizers("note"), ","), "")
  eq(table.concat(form:normalizers("email"), ","), "trim,lowercase")
  form:free()
end)

test("normalize: nfc and collapse_whitespace; dirty and changed_since follow what was set", function()
  local form = formwell.Form()
  form:add_field("name", {}, { initial = "Ann", normalize = { "trim", "collapse_whitespace", "nfc" } })
  eq(form:state("name").dirty, false)
  local seen = form:revision()
  form:set("name", "Ann ")
  local state = form:state("name")
  eq(state.dirty, true, "dirty compares what was set with the initial value")
  eq(state.normalized, "Ann")
  eq(table.concat(form:changed_since(seen), ","), "name", "typing a trailing space changes the field")
  seen = form:revision()
  form:set("name", "Ann ")
  eq(#form:changed_since(seen), 0, "the same value again changes nothing")
  form:set("name", "  Ame\204\129lie \t  Poulain ")
  eq(form:state("name").normalized, "Am\195\169lie Poulain", "composed, one space")
  form:free()
end)

test("set_normalizers re-judges the field and its matches dependents; the value set stays", function()
  local form = formwell.Form()
  form:add_field("email", { formwell.email() }, { label = "Email" })
  form:add_field("confirm", { formwell.matches("email") })
  form:set("email", "a@b.co")
  form:set("confirm", "  A@B.CO")
  form:touch("confirm")
  eq(form:state("confirm").message, "Must match Email")
  form:set_normalizers("confirm", { "trim", "lowercase" })
  eq(form:state("confirm").validity, "valid")
  eq(form:get("confirm"), "  A@B.CO")
  form:set("email", "A@B.CO ")
  eq(form:state("confirm").validity, "invalid")
  local seen = form:revision()
  form:set_normalizers("email", { "trim", "lowercase" })
  eq(form:state("confirm").validity, "valid", "the dependent is re-judged")
  eq(table.concat(form:changed_since(seen), ","), "email,confirm")
  form:set_normalizers("confirm", {})
  eq(form:get_normalized("confirm"), "  A@B.CO")
  eq(#form:normalizers("confirm"), 0)
  form:free()
end)

test("normalisers refused: unknown names, not an array, one given twice (add_field is all or nothing)", function()
  local form = formwell.Form()
  local err = raises(form.add_field, form, "a", {}, { normalize = { "upper" } })
  assert(type(err) == "string" and err:find("unknown normaliser 'upper'", 1, true), tostring(err))
  err = raises(form.add_field, form, "a", {}, { normalize = "trim" })
  assert(type(err) == "string" and err:find("array of normaliser names", 1, true), tostring(err))
  err = raises(form.add_field, form, "a", {}, { secret = "yes" })
  assert(type(err) == "string" and err:find("secret must be a boolean", 1, true), tostring(err))
  err = raises(form.add_field, form, "a", {}, { normalize = { "trim", "trim" } })
  eq(err.status, "FW_ERR_INVALID_ARGUMENT")
  eq(form:count(), 0, "the refused field is not left behind")
  form:add_field("a", {}, { normalize = { "nfc" } })
  eq(raises(form.set_normalizers, form, "a", { "lowercase", "lowercase" }).status, "FW_ERR_INVALID_ARGUMENT")
  eq(table.concat(form:normalizers("a"), ","), "nfc", "a refused list changes nothing")
  eq(raises(form.set_normalizers, form, "nope", {}).status, "FW_ERR_UNKNOWN_FIELD")
  eq(raises(form.normalizers, form, "nope").status, "FW_ERR_UNKNOWN_FIELD")
  form:free()
end)

test("secret: add_field / set_secret / spec, state().secret; export_spec leaves out the initial value", function()
  local form = formwell.Form()
  form:add_field("password", { formwell.min_length(8) }, { initial = "hunter22", secret = true })
  form:add_field("user", {}, { initial = "ada" })
  eq(form:state("password").secret, true)
  eq(form:state("user").secret, false)
  eq(form:get("password"), "hunter22", "the value is still the value")
  eq(form:values().password, "hunter22")
  local spec = form:export_spec()
  assert(not spec:find("hunter22", 1, true), "no secret initial value in " .. spec)
  assert(spec:find('"secret"', 1, true), spec)
  local seen = form:revision()
  form:set_secret("user", true)
  eq(form:state("user").secret, true)
  eq(table.concat(form:changed_since(seen), ","), "user")
  form:set_secret("user", false)
  eq(form:state("user").secret, false)
  eq(raises(form.set_secret, form, "nope", true).status, "FW_ERR_UNKNOWN_FIELD")
  local reloaded = formwell.from_spec(spec)
  eq(reloaded:state("password").secret, true)
  reloaded:free()
  local loaded = formwell.from_spec('{"formwell": 1, "fields": [{"id": "pin", "secret": true, "normalize": ["digits_only"]}]}')
  eq(loaded:state("pin").secret, true)
  eq(table.concat(loaded:normalizers("pin"), ","), "digits_only")
  loaded:set("pin", "12 34")
  eq(loaded:values().pin, "1234")
  loaded:free()
  form:free()
end)

test("check_many normalises each record's values, initial values included", function()
  local form = formwell.Form()
  form:add_field("email", { formwell.required(), formwell.email() }, { normalize = { "trim", "lowercase" } })
  form:add_field("confirm", { formwell.matches("email") }, { normalize = { "trim", "lowercase" } })
  form:add_field("code", { formwell.max_length(2) }, { initial = " ab ", normalize = { "trim" } })
  local result = form:check_many({
    { email = " A@B.CO ", confirm = "a@b.co" },
    { email = "   ", confirm = "" },
    { email = "a@b.co", confirm = "x@b.co", code = "  xyz " },
  })
  eq(result.valid[1], true)
  eq(result.valid[2], false)
  eq(result:errors(2).email, "This field is required")
  eq(result.valid[3], false)
  eq(result:failing_rule(3, "confirm"), 1)
  eq(result:errors(3).code, "Must be 2 characters or fewer")
  form:free()
end)

test("normaliser events on a form with Lua validators run through the jit.off copies", function()
  local form = formwell.Form()
  local armed = false
  form:add_field("code", { formwell.custom(function(value)
    if armed then error("validator exploded", 0) end
    return value:sub(1, 1) == "+" or "Number must start with '+'"
  end) }, { normalize = { "trim" } })
  form:set("code", "  +1 ")
  eq(form:state("code").validity, "valid")
  armed = true
  local err = raises(form.set_normalizers, form, "code", { "digits_only" })
  assert(type(err) == "string" and err:find("validator exploded", 1, true), tostring(err))
  armed = false
  eq(table.concat(form:normalizers("code"), ","), "trim", "a failing validator changes nothing")
  form:set_normalizers("code", { "digits_only" })
  eq(form:state("code").message, "Number must start with '+'")
  eq(form:get("code"), "  +1 ")
  form:free()
end)

test("the JSON decoder is strict", function()
  for _, bad in ipairs({ "[1,]", "01", "{\"a\":1,}", "[1 2]", "\"\\ud800\"", "nul", "{} x", "\"\t\"" }) do
    assert(not pcall(json.decode, bad), "refused: " .. bad)
  end
  local v = json.decode('{"a": [1, -2.5e1, true, null, "\\u00e9\\ud83d\\ude00"]}')
  eq(v.a[2], -25); eq(v.a[4], json.null); eq(v.a[5], "é😀")
end)

test("issue 13: a constructor per catalogue kind, JSON parameters, conditional rules, rule sets", function()
  for _, kind in ipairs(formwell.catalog.kinds) do
    if kind.name ~= "custom" and kind.name ~= "async" then
      assert(type(formwell[kind.name]) == "function", "constructor for " .. kind.name)
    end
  end
  local form = formwell.Form()
  form:add_field("country")
  form:add_field("state", { formwell.required_if("country", "US", "State, please") })
  form:add_field("site", { formwell.url({ schemes = { "https" }, hint = "https only" }) })
  form:add_field("size", { formwell.one_of({ "S", "M" }) })
  form:add_field("price", { formwell.decimal({ min = 0.1, max = "0.3" }) })
  form:add_field("nick", { formwell.max_length(4, { unit = "bytes" }) })
  local password = formwell.rule_set("password", { formwell.required(), formwell.min_length(8), formwell.password_strength() })
  form:add_field("pw", { password })
  form:add_field("old", { formwell.rule_set("password", password.rules), formwell.not_equal("pw") })
  form:touch("state")
  eq(form:state("state").phase, "idle", "not required yet")
  form:set("country", "US")
  local state = form:state("state")
  eq(state.message, "State, please", "required_if message"); eq(state.failing_rule, 1, "failing_rule (1-based)")
  form:set("country", "FR")
  eq(form:state("state").phase, "idle", "optional again")
  form:set("site", "http://example.com")
  eq(form:state("site").message, "Enter a valid URL including https://", "url schemes")
  form:set("size", "L"); eq(form:state("size").message, "Must be one of: S, M", "one_of")
  form:set("price", "0.30000000000000000001"); eq(form:state("price").message, "Enter a number from 0.1 to 0.3", "decimal")
  form:set("price", "0.1"); eq(form:state("price").validity, "valid", "decimal bound exact")
  form:set("nick", "Köln"); eq(form:state("nick").message, "Must be 4 bytes or fewer", "bytes")
  form:set("pw", "abcdefgh"); eq(form:state("pw").failing_rule, 3, "the set's third rule")
  form:set("pw", "abcdef1!"); eq(form:state("pw").validity, "valid", "seed 03's scale")
  form:set("old", "abcdef1!"); eq(form:state("old").message, "Must differ from pw", "not_equal")
  -- Refusals: the library's status and detail, the form unchanged.
  local err = raises(form.add_field, form, "bad", { formwell.integer({ min = 5, max = 1 }) })
  assert(tostring(err):find("FW_ERR_INVALID_ARGUMENT", 1, true), tostring(err))
  err = raises(form.add_field, form, "bad", { formwell.url({ schemes = "https" }) })
  assert(tostring(err):find("list of strings", 1, true), tostring(err))
  err = raises(form.add_field, form, "bad", { { rule = "set", name = "nope" } })
  assert(tostring(err):find("no rule set named 'nope'", 1, true), tostring(err))
  eq(form:count(), 8, "nothing added by the refusals")
  form:free()
end)

collectgarbage()
print(("binding_test.lua (LuaJIT, libformwell %s from %s): %d passed, %d failed")
  :format(formwell.version, formwell.library_path, passed, failed))
os.exit(failed == 0 and 0 or 1)
