-- conformance.lua: runs the cross-runtime conformance vectors (Tests/Conformance/*.json, format in
-- Tests/Conformance/README.md) through the LuaJIT binding, as the Swift, C and Python runners do.
-- For each vector: a form from the vector's spec (its exact text, handed to fw_form_load_spec by
-- formwell.from_spec) with the starts_with_plus validator defined in Lua; then every step's event
-- and, after it, every field's state (one form:state call: phase, validity, message, display,
-- display_message, touched, failing_rule when the vector gives it), is_valid and first_invalid.
-- Each vector's `records` are checked twice: all at once through form:check_many (the batch path),
-- and one by one as a submit of a fresh form (set every value given, then validate).
--
-- Vectors 11-19's additions are read too: the events set_error, clear_error, clear_errors,
-- remove_field, validate / touch_all with a group and reset with values; steps that must fail
-- ("error": the formwell error's status, and the form exactly as before); the per-field keys
-- errors, tint, label_raised, emphasized, hint, visited, dirty, modified_since_submit and
-- external_error (compared when present, from the same form:state call) and the form keys
-- dirty_fields, submit_count, submit_failed, announcement, valid_in, first_invalid_in and changed
-- (form:changed_since(the revision before the step)).
--
-- Vectors 20-24's additions (asynchronous rules): `tick`; `now` on `type` / `set_value` (a tick
-- first); `take` (form:next_request(now), compared with `expect_request` {field, value, rule}, or
-- null: nothing handed out; the request's id is remembered under the label `as`); `resolve` by label
-- or raw integer id, with `returns` applied | stale, or a step `error`; `submit` (optional group,
-- `returns` valid | invalid | pending, and a pending submit's field ids compared with
-- `pending_fields`, kept to the group's members when there is a group); validity "pending"; the form
-- keys pending_fields (form:pending_fields(), and its length against info().pending_count, the
-- library's live count), stale_results and next_due.
--
-- Vectors 60-63's additions (normalisers and secret fields; the spec's normalize and secret keys
-- reach the library through formwell.from_spec, i.e. fw_form_load_spec): the per-field keys value
-- (as set), normalized and secret (from the same form:state call) and the form key values
-- (form:values(), the normalised values a submission uses). Strings compare byte for byte.
--
-- Vectors 64-68's additions (failure codes, parameters, locales; the spec's locale reaches the
-- library through fw_form_load_spec): the per-field keys code, display_code, error_codes and params
-- (from the same form:state call; params, the library's JSON object decoded, compared structurally
-- with the vector's); each record's optional codes {id = code} (the submit path: the display_code of
-- every field whose display is "error"; the batch path: check_many's codes(r)); and the top-level
-- checks, each run through formwell.check_value(its rules, as rule tables the binding serialises,
-- value, locale) and compared on validity, message, code and params.
--
-- Usage: luajit bindings/lua/tests/conformance.lua Tests/Conformance/*.json
-- Prints one line per mismatch and a summary; exits 1 on any failure, 2 on a usage error.

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path

local formwell = require("formwell")
local json = require("formwell_json")

local vectors, steps, records, value_checks, checks, failures = 0, 0, 0, 0, 0, 0

local function failure(file, step, field, what, expected, got)
  failures = failures + 1
  local where = step and ("step " .. step .. ": ") or ""
  print(("%s: %s%s: %s: expected %s, got %s"):format(file, where, field, what, expected, got))
end

local function show(value)
  if value == nil or value == json.null then return "null" end
  if type(value) == "string" then return ("%q"):format(value) end
  return tostring(value)
end

local function check(file, step, field, what, expected, got)
  checks = checks + 1
  if expected ~= got then failure(file, step, field, what, show(expected), show(got)) end
end

-- A list of strings as text, for comparing and printing: ["a", "b"].
local function show_list(list)
  if type(list) ~= "table" then return show(list) end
  local parts = {}
  for i, item in ipairs(list) do parts[i] = show(item) end
  return "[" .. table.concat(parts, ", ") .. "]"
end

local function check_list(file, step, field, what, expected, got)
  if type(expected) ~= "table" then
    return failure(file, step, field, what, "a list in the vector", show(expected))
  end
  check(file, step, field, what, show_list(expected), show_list(got))
end

-- JSON values compared structurally: both as canonical JSON text (keys sorted, numbers as numbers,
-- strings as strings; an empty array and an empty object both read as an empty Lua table).
local function check_json(file, step, field, what, expected, got)
  local ok_want, want = pcall(json.encode, expected)
  local ok_got, have = pcall(json.encode, got)
  if not ok_want then return failure(file, step, field, what, "JSON in the vector", want) end
  if not ok_got then return failure(file, step, field, what, want, "not JSON: " .. tostring(have)) end
  check(file, step, field, what, want, have)
end

-- seed 02's example, as every runner defines it
local function starts_with_plus(value)
  if value:sub(1, 1) == "+" then return true end
  return "Number must start with '+'"
end

local FIELD_KEYS = { "phase", "validity", "message", "display", "display_message" }

-- Per-field keys a vector may give besides the base ones (compared when present): the vector's key,
-- the state table's key, and the type the vector must give.
local OPTIONAL_FIELD_KEYS = {
  { "tint", "tint", "string" },
  { "label_raised", "label_raised", "boolean" },
  { "emphasized", "emphasized", "boolean" },
  { "hint", "accessibility_hint", "string" },
  { "visited", "visited", "boolean" },
  { "dirty", "dirty", "boolean" },
  { "modified_since_submit", "modified_since_submit", "boolean" },
  { "external_error", "external_error", "boolean" },
  -- vectors 60-63: normalisers and secret fields
  { "value", "value", "string" },
  { "normalized", "normalized", "string" },
  { "secret", "secret", "boolean" },
  -- vectors 64-68: failure codes
  { "code", "code", "string" },
  { "display_code", "display_code", "string" },
}
local KNOWN_FIELD_KEYS = { touched = true, failing_rule = true, errors = true, error_codes = true, params = true }
for _, key in ipairs(FIELD_KEYS) do KNOWN_FIELD_KEYS[key] = true end
for _, entry in ipairs(OPTIONAL_FIELD_KEYS) do KNOWN_FIELD_KEYS[entry[1]] = true end

local KNOWN_FORM_KEYS = {
  fields = true, valid = true, first_invalid = true, dirty_fields = true, submit_count = true,
  submit_failed = true, announcement = true, valid_in = true, first_invalid_in = true, changed = true,
  pending_fields = true, stale_results = true, next_due = true, values = true,
}

local function check_field(file, index, form, id, want)
  if type(want) ~= "table" then
    return failure(file, index, id, "expectation", "an object", type(want))
  end
  local state = form:state(id) -- one fw_field_snapshot call
  for _, key in ipairs(FIELD_KEYS) do
    if type(want[key]) ~= "string" then
      failure(file, index, id, key, "a string in the vector", "missing or not a string")
    else
      check(file, index, id, key, want[key], state[key])
    end
  end
  if type(want.touched) ~= "boolean" then
    failure(file, index, id, "touched", "a boolean in the vector", "missing or not a boolean")
  else
    check(file, index, id, "touched", want.touched, state.touched)
  end
  if want.failing_rule ~= nil then -- optional; the vectors count from 0, Lua from 1
    local expected = want.failing_rule ~= json.null and want.failing_rule + 1 or nil
    check(file, index, id, "failing_rule (1-based)", expected, state.failing_rule)
  end
  if want.errors ~= nil then check_list(file, index, id, "errors", want.errors, state.errors) end
  if want.error_codes ~= nil then check_list(file, index, id, "error_codes", want.error_codes, state.error_codes) end
  if want.params ~= nil then
    if type(want.params) ~= "table" then
      failure(file, index, id, "params", "an object in the vector", show(want.params))
    else
      check_json(file, index, id, "params", want.params, state.params)
    end
  end
  for _, entry in ipairs(OPTIONAL_FIELD_KEYS) do
    local key, member, kind = entry[1], entry[2], entry[3]
    if want[key] ~= nil then
      if type(want[key]) ~= kind then
        failure(file, index, id, key, "a " .. kind .. " in the vector", show(want[key]))
      else
        check(file, index, id, key, want[key], state[member])
      end
    end
  end
  for key in pairs(want) do
    if not KNOWN_FIELD_KEYS[key] then failure(file, index, id, key, "a known per-field key", "unknown key") end
  end
end

-- Everything a failing step must leave as it was: the fields and every state (revision included),
-- the verdicts and the form's own state.
local function whole_state(form)
  local parts = {}
  local function add(value) parts[#parts + 1] = type(value) == "table" and json.encode(value) or show(value) end
  local ids = form:fields()
  add(ids)
  for _, id in ipairs(ids) do
    local state = form:state(id)
    local keys = {}
    for key in pairs(state) do keys[#keys + 1] = key end
    table.sort(keys)
    for _, key in ipairs(keys) do add(key) add(state[key]) end
  end
  local info = form:info()
  add(form:is_valid()) add(form:first_invalid()) add(info.revision) add(info.submit_count)
  add(info.submit_failed) add(info.mode) add(info.error_mode) add(form:announcement())
  add(info.pending_count) add(info.stale_results) add(info.now) add(form:next_due())
  return table.concat(parts, "\1")
end

-- The request a `take` handed out, compared with the vector's expect_request ({field, value, rule}
-- or null); the id is remembered under the label `as`.
local function take(context, form, step)
  local file, index, labels = context.file, context.index, context.labels
  local request = form:next_request(step.now)
  local want = step.expect_request
  if want == json.null then
    check(file, index, "(form)", "take", "no request", request and ("request %d for %s"):format(request.id, request.field) or "no request")
    return
  end
  if type(want) ~= "table" then
    return failure(file, index, "(form)", "expect_request", "an object or null in the vector", show(want))
  end
  if request == nil then
    return failure(file, index, "(form)", "take", ("a request for %s"):format(show(want.field)), "no request")
  end
  check(file, index, "(form)", "take field", want.field, request.field)
  check(file, index, "(form)", "take value", want.value, request.value)
  check(file, index, "(form)", "take rule", want.rule, request.rule)
  check(file, index, "(form)", "take index", form:index(request.field), request.index)
  if type(step.as) == "string" then labels[step.as] = request.id end
end

-- resolve: `request` is a take's label or a raw integer id.
local function resolve(context, form, step)
  local id = step.request
  if type(id) == "string" then
    id = context.labels[id]
    if id == nil then error("no take labelled " .. show(step.request) .. " before this step", 0) end
  elseif type(id) ~= "number" then
    error("resolve needs a request label or id, not " .. show(step.request), 0)
  end
  local message = step.message
  if message == json.null then message = nil end
  return form:resolve(id, step.verdict, message)
end

-- Runs the step's event; returns what validate / submit / resolve returned (nil for other events),
-- or the string "unknown event". A submit returns its outcome and its pending ids.
local function apply(form, step, context)
  local event, field, value, group = step.event, step.field, step.value, step.group
  if group == json.null then group = nil end
  if (event == "type" or event == "set_value") and step.now ~= nil then form:tick(step.now) end
  if event == "focus" then form:focus(field)
  elseif event == "blur" then form:blur(field)
  elseif event == "touch" then form:touch(field)
  elseif event == "type" or event == "set_value" then form:set(field, value)
  elseif event == "tick" then form:tick(step.now)
  elseif event == "take" then take(context, form, step)
  elseif event == "resolve" then return resolve(context, form, step)
  elseif event == "submit" then return form:submit(group)
  elseif event == "touch_all" then form:touch_all(group)
  elseif event == "reset" then form:reset(step.values)
  elseif event == "validate" then return form:validate(group)
  elseif event == "set_error" then form:set_error(field, step.message)
  elseif event == "clear_error" then form:clear_error(field)
  elseif event == "clear_errors" then form:clear_errors()
  elseif event == "remove_field" then form:remove_field(field)
  else return "unknown event"
  end
end

-- The vector's spec fields that belong to group (a set of ids), to keep a group submit's expected
-- pending ids to the group.
local function members(spec, group)
  local set = {}
  for _, field in ipairs(spec.fields or {}) do
    for _, name in ipairs(type(field.groups) == "table" and field.groups or {}) do
      if name == group then set[field.id] = true end
    end
  end
  return set
end

local function run_step(file, index, form, step, context)
  context.file, context.index = file, index
  local revision = form:revision()
  if step.error ~= nil then
    -- the event must fail with that status and leave the form exactly as it was
    if type(step.error) ~= "string" then
      return failure(file, index, "(form)", "error", "a status name in the vector", show(step.error))
    end
    local before = whole_state(form)
    local ok, err = pcall(apply, form, step, context)
    local want = "FW_ERR_" .. step.error:upper()
    if ok then
      check(file, index, step.field or "(form)", step.event .. " fails", want,
        err == "unknown event" and "an unknown event" or "success")
    elseif formwell.is_error(err) then
      check(file, index, step.field or "(form)", step.event .. " fails with", want, err.status)
    else
      check(file, index, step.field or "(form)", step.event .. " fails with", want, tostring(err))
    end
    check(file, index, "(form)", "state after the failing " .. step.event, "unchanged",
      whole_state(form) == before and "unchanged" or "changed")
  else
    local returned, pending = apply(form, step, context)
    if returned == "unknown event" then
      return failure(file, index, "-", "event", "a known event", show(step.event))
    end
    if step.event == "validate" then
      if type(step.returns) ~= "boolean" then
        failure(file, index, "(form)", "returns", "a boolean in the vector", "missing or not a boolean")
      else
        check(file, index, "(form)", "validate returns", step.returns, returned)
      end
    elseif step.event == "resolve" or step.event == "submit" then
      if type(step.returns) ~= "string" then
        failure(file, index, "(form)", "returns", "a string in the vector", "missing or not a string")
      else
        check(file, index, "(form)", step.event .. " returns", step.returns, returned)
      end
      if step.event == "submit" and type(step.expect) == "table" and type(step.expect.pending_fields) == "table" then
        -- the submit's pending ids: when it answers pending, the vector's pending fields that take
        -- part (the whole form, or the group's members in the vector's spec); else none
        local group, want = step.group ~= json.null and step.group or nil, {}
        local set = group and members(context.spec, group)
        if returned == "pending" then
          for _, id in ipairs(step.expect.pending_fields) do
            if set == nil or set[id] then want[#want + 1] = id end
          end
        end
        check_list(file, index, "(form)", "submit's pending ids", want, pending)
      end
    end
  end

  local expect = step.expect
  if type(expect) ~= "table" or type(expect.fields) ~= "table" then
    return failure(file, index, "(form)", "expect.fields", "an object", "missing")
  end
  local ids = form:fields()
  local known = {}
  for _, id in ipairs(ids) do
    known[id] = true
    if expect.fields[id] == nil then
      failure(file, index, id, "expect.fields", "every field of the form listed", "field missing from the vector")
    else
      check_field(file, index, form, id, expect.fields[id])
    end
  end
  for id in pairs(expect.fields) do
    if not known[id] then failure(file, index, id, "expect.fields", "a field of the form", "unknown field") end
  end
  if type(expect.valid) ~= "boolean" then
    failure(file, index, "(form)", "valid", "a boolean in the vector", "missing or not a boolean")
  else
    check(file, index, "(form)", "valid", expect.valid, form:is_valid())
  end
  local first = expect.first_invalid
  if first ~= json.null and type(first) ~= "string" then
    failure(file, index, "(form)", "first_invalid", "a string or null in the vector", "missing")
  else
    check(file, index, "(form)", "first_invalid", first ~= json.null and first or nil, form:first_invalid())
  end
  for key in pairs(expect) do
    if not KNOWN_FORM_KEYS[key] then failure(file, index, "(form)", key, "a known form key", "unknown key") end
  end
  if expect.dirty_fields ~= nil then
    check_list(file, index, "(form)", "dirty_fields", expect.dirty_fields, form:dirty_fields())
    if type(expect.dirty_fields) == "table" then
      check(file, index, "(form)", "dirty", #expect.dirty_fields > 0, form:dirty())
    end
  end
  if expect.submit_count ~= nil then check(file, index, "(form)", "submit_count", expect.submit_count, form:submit_count()) end
  if expect.submit_failed ~= nil then
    check(file, index, "(form)", "submit_failed", expect.submit_failed, form:submit_failed())
  end
  if expect.announcement ~= nil then
    check(file, index, "(form)", "announcement", expect.announcement, form:announcement())
  end
  if expect.valid_in ~= nil then
    for group, valid in pairs(expect.valid_in) do
      check(file, index, "(form)", "valid_in[" .. group .. "]", valid, form:is_valid_in(group))
    end
  end
  if expect.first_invalid_in ~= nil then
    for group, id in pairs(expect.first_invalid_in) do
      check(file, index, "(form)", "first_invalid_in[" .. group .. "]", id ~= json.null and id or nil,
        form:first_invalid_in(group))
    end
  end
  if expect.changed ~= nil then
    check_list(file, index, "(form)", "changed", expect.changed, form:changed_since(revision))
  end
  if expect.pending_fields ~= nil then
    check_list(file, index, "(form)", "pending_fields", expect.pending_fields, form:pending_fields())
    if type(expect.pending_fields) == "table" then
      check(file, index, "(form)", "pending_count", #expect.pending_fields, form:info().pending_count)
    end
  end
  if expect.stale_results ~= nil then
    check(file, index, "(form)", "stale_results", expect.stale_results, form:stale_results())
  end
  if expect.next_due ~= nil then
    check(file, index, "(form)", "next_due", expect.next_due ~= json.null and expect.next_due or nil, form:next_due())
  end
  if expect.values ~= nil then -- what a submission uses: form:values(), normalised
    if type(expect.values) ~= "table" then
      failure(file, index, "(form)", "values", "an object in the vector", show(expect.values))
    else
      local got = form:values()
      for _, id in ipairs(ids) do check(file, index, "(form)", "values[" .. id .. "]", expect.values[id], got[id]) end
      for id in pairs(expect.values) do
        if not known[id] then failure(file, index, "(form)", "values", "a field of the form", show(id)) end
      end
    end
  end
end

-- Compares one record's errors {id = message} (or codes {id = code}: what = "code") with the vector's.
local function check_errors(file, label, ids, want, got, what)
  for _, id in ipairs(ids) do
    check(file, nil, label .. ": " .. id, what or "error", want[id], got[id])
  end
  for id in pairs(want) do
    local known = false
    for _, fid in ipairs(ids) do known = known or fid == id end
    if not known then failure(file, nil, label, "errors", "a field of the form", id) end
  end
end

local function run_records(file, form, spec_text, ids, list)
  local batch = {}
  for r, record in ipairs(list) do
    if type(record.values) ~= "table" or type(record.valid) ~= "boolean" or type(record.errors) ~= "table" then
      failure(file, nil, "record " .. r, "shape", "values, valid and errors", "missing")
      return
    end
    if record.codes ~= nil and type(record.codes) ~= "table" then
      failure(file, nil, "record " .. r, "codes", "an object in the vector", show(record.codes))
      return
    end
    batch[r] = record.values
  end
  -- all at once, on the form the steps left behind (a batch never reads the form's own state)
  local result = form:check_many(batch)
  local invalid = 0
  for r, record in ipairs(list) do
    records = records + 1
    local label = "record " .. r
    check(file, nil, label, "check_many valid", record.valid, result.valid[r])
    check_errors(file, label .. " (check_many)", ids, record.errors, result:errors(r))
    if record.codes ~= nil then
      check_errors(file, label .. " (check_many)", ids, record.codes, result:codes(r), "code")
    end
    if not result.valid[r] then invalid = invalid + 1 end
  end
  check(file, nil, "(records)", "invalid_count", invalid, result.invalid_count)
  -- one by one: a submit of a fresh form
  for r, record in ipairs(list) do
    local fresh = formwell.from_spec(spec_text)
    for _, id in ipairs(ids) do
      if record.values[id] ~= nil then fresh:set(id, record.values[id]) end
    end
    local label = "record " .. r .. " (submit)"
    check(file, nil, label, "validate", record.valid, fresh:validate())
    local got, codes = {}, {}
    for _, id in ipairs(ids) do
      local state = fresh:state(id)
      if state.validity == "invalid" then got[id] = state.message end
      if state.display == "error" then codes[id] = state.display_code end
    end
    check_errors(file, label, ids, record.errors, got)
    if record.codes ~= nil then check_errors(file, label, ids, record.codes, codes, "code") end
    fresh:free()
  end
end

-- The vector's single-value checks: formwell.check_value on each one's rules (rule tables, which
-- the binding serialises to spec JSON), value and locale (nil: English).
local function run_checks(file, list)
  if type(list) ~= "table" then return failure(file, nil, "(checks)", "checks", "an array in the vector", show(list)) end
  for index, want in ipairs(list) do
    value_checks = value_checks + 1
    local label = "check " .. (index - 1)
    if type(want.rules) ~= "table" or type(want.value) ~= "string" or type(want.validity) ~= "string"
      or type(want.message) ~= "string" or type(want.code) ~= "string" or type(want.params) ~= "table" then
      failure(file, nil, label, "shape", "rules, value, validity, message, code and params", "missing")
    else
      local locale = want.locale
      if locale == json.null then locale = nil end
      local ok, got = pcall(formwell.check_value, want.rules, want.value, locale)
      if not ok then
        failure(file, nil, label, "check_value", "a verdict", tostring(got))
      else
        check(file, nil, label, "validity", want.validity, got.validity)
        check(file, nil, label, "message", want.message, got.message)
        check(file, nil, label, "code", want.code, got.code)
        check_json(file, nil, label, "params", want.params, got.params)
        check(file, nil, label, "failing_rule set exactly when invalid", want.validity == "invalid",
          got.failing_rule ~= nil)
      end
    end
  end
end

local function run_vector(file)
  local handle = io.open(file, "rb")
  if not handle then return failure(file, nil, "(vector)", "file", "readable", "unreadable") end
  local text = handle:read("*a")
  handle:close()
  local ok, vector, spans = pcall(json.decode, text)
  if not ok then return failure(file, nil, "(vector)", "JSON", "a readable vector", vector) end
  if type(vector.spec) ~= "table" or type(vector.steps) ~= "table" then
    return failure(file, nil, "(vector)", "shape", '"spec" object and "steps" array', "missing")
  end
  vectors = vectors + 1
  local span = spans[vector.spec]
  local spec_text = text:sub(span[1], span[2])
  local form = formwell.from_spec(spec_text, { validators = { starts_with_plus = starts_with_plus } })
  local context = { labels = {}, spec = vector.spec } -- take labels -> request ids
  for index, step in ipairs(vector.steps) do
    steps = steps + 1
    local ran, err = pcall(run_step, file, index - 1, form, step, context)
    if not ran then failure(file, index - 1, step.field or "(form)", step.event or "step", "no error", tostring(err)) end
  end
  if type(vector.records) == "table" then
    local ran, err = pcall(run_records, file, form, spec_text, form:fields(), vector.records)
    if not ran then failure(file, nil, "(records)", "run", "no error", tostring(err)) end
  end
  if vector.checks ~= nil then
    local ran, err = pcall(run_checks, file, vector.checks)
    if not ran then failure(file, nil, "(checks)", "run", "no error", tostring(err)) end
  end
  form:free()
end

if #arg == 0 then
  io.stderr:write("usage: luajit conformance.lua VECTOR.json...\n")
  os.exit(2)
end
for _, file in ipairs(arg) do run_vector(file) end
collectgarbage()
if formwell.live_count() ~= 0 then
  failures = failures + 1
  print(("conformance.lua: %d forms still alive after the run"):format(formwell.live_count()))
end
print(("conformance.lua (LuaJIT, %s): %d vectors, %d steps, %d records (check_many and submits), %d value checks, %d checks, %d failures")
  :format(formwell.version, vectors, steps, records, value_checks, checks, failures))
os.exit(failures == 0 and 0 or 1)
